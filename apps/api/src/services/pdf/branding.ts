// The organization a report is printed for, as its header shows it: company_info ("Company contact (printed on
// reports)" in the organization form) and the logo uploaded there, read from the file store. When company_info is
// empty the organization's own name and address stand in. A logo that cannot be read, or is WebP (PDFKit embeds
// PNG and JPEG only), is left out: the report is still printed.
import type { CompanyInfo } from '../../db/schema/organizations.ts';
import type { ServiceLogger } from '../logger.ts';
import { isSafeStorageKey } from '../storage/storage-key.ts';
import type { Storage } from '../storage/storage.ts';
import type { ReportBranding } from './report-document.ts';

export type BrandedOrganization = {
  name: string;
  address1: string | null;
  address2: string | null;
  address3: string | null;
  state: string | null;
  zipcode: string | null;
  country: string | null;
  companyInfo: CompanyInfo;
};

/** A logo larger than this is not read (uploads are limited to 5 MB; anything bigger is not ours). */
const LOGO_MAX_BYTES = 6 * 1024 * 1024;

const join = (parts: ReadonlyArray<string | null | undefined>, separator: string): string =>
  parts
    .map((p) => p?.trim())
    .filter((p): p is string => Boolean(p))
    .join(separator);

/** The header lines of an organization: name, address, place, contact. */
export function brandingLines(org: BrandedOrganization): Omit<ReportBranding, 'logo'> {
  const info = org.companyInfo;
  const name = info.name?.trim() || org.name;
  const address = info.address?.trim() || join([org.address1, org.address2, org.address3], ', ');
  const place = info.city || info.state || info.zip_code
    ? join([info.city, join([info.state, info.zip_code], ' ')], ', ')
    : join([join([org.state, org.zipcode], ' '), org.country], ', ');
  const contact = join([info.email, info.contact_number], ' · ');
  return { name, lines: [address, place, contact].filter(Boolean) };
}

/** PNG or JPEG, by their first bytes. */
export function isEmbeddableImage(data: Buffer): boolean {
  const png = data.length > 8 && data.readUInt32BE(0) === 0x89504e47;
  const jpeg = data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff;
  return png || jpeg;
}

/** The organization's branding with its logo, if it has one that can be printed. */
export async function loadBranding(
  storage: Storage,
  org: BrandedOrganization,
  log: ServiceLogger,
): Promise<ReportBranding> {
  return { ...brandingLines(org), logo: await readLogo(storage, org.companyInfo.profile_image_path ?? null, log) };
}

async function readLogo(storage: Storage, path: string | null, log: ServiceLogger): Promise<Buffer | null> {
  if (!path || !isSafeStorageKey(path)) return null;
  try {
    const object = await storage.get(path);
    if (!object) return null;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of object.body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size > LOGO_MAX_BYTES) {
        object.body.destroy();
        return null;
      }
      chunks.push(buffer);
    }
    const data = Buffer.concat(chunks);
    return isEmbeddableImage(data) ? data : null;
  } catch (error) {
    log.warn({ err: error instanceof Error ? error.message : String(error) }, 'report logo could not be read');
    return null;
  }
}
