// Language contracts (part 1 §3, part 3; DESIGN §7b): the read list the organization form's pickers use.
// The Languages screen extends this file with its write schemas.
import { z } from 'zod';
import { ZBoolParam, ZListQuery, paginated } from './list.ts';

/** `GET language/?search=&limit=&page=`: search matches the name or the iso_code. */
export const ZLanguageListQuery = ZListQuery.extend({
  is_tutorial_available: ZBoolParam.optional(),
});
export type TLanguageListQuery = z.infer<typeof ZLanguageListQuery>;
export type TLanguageListParams = z.input<typeof ZLanguageListQuery>;

export const LANGUAGE_ORDERING_FIELDS = ['id', 'name', 'iso_code', 'created'] as const;
export const LANGUAGE_DEFAULT_ORDERING = 'name';

export const ZLanguage = z.object({
  id: z.number().int(),
  name: z.string(),
  iso_code: z.string(),
  is_tutorial_available: z.boolean(),
  app_version: z.number().int().nullable(),
});
export type TLanguage = z.infer<typeof ZLanguage>;

export const ZLanguageList = paginated(ZLanguage);
export type TLanguageList = z.infer<typeof ZLanguageList>;
