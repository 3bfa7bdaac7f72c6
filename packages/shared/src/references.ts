// Organization references (part 1 §2.6, §3, §4, §5, §7): the contracts of `organization/reference/`.
import { z } from 'zod';
import { ZBoolParam, ZListQuery, idField, idParam } from './list.ts';
import { MESSAGES, ORG_TEXT_PATTERN, textField } from './validation.ts';

export const REFERENCE_NAME_MAX = 255;

/** Part 1 §4 and §8 texts, used verbatim (trailing words capitalised as the spec has them). */
export const REFERENCE_MESSAGES = {
  created: 'Reference added Successfully',
  updated: 'Reference updated Successfully',
  activated: 'Reference activated Successfully',
  inactivated: 'Reference inactivated Successfully',
  deleted: 'Reference deleted Successfully',
  duplicate: 'A reference with this name already exists.',
  empty: 'No reference added',
  tooLong: `Ensure this field has no more than ${REFERENCE_NAME_MAX} characters.`,
} as const;

/**
 * Required, not whitespace only, the organization text pattern (part 1 §5). A blank name reports only that it
 * is required (the check aborts), not the pattern message as well.
 */
export const ZReferenceName = textField({ error: MESSAGES.required })
  .trim()
  .min(1, { error: MESSAGES.required, abort: true })
  .regex(ORG_TEXT_PATTERN, MESSAGES.referenceText)
  .max(REFERENCE_NAME_MAX, REFERENCE_MESSAGES.tooLong);

/** POST organization/reference/ */
export const ZReferenceInput = z.object({
  name: ZReferenceName,
  is_active: z.boolean({ error: 'Must be a valid boolean.' }).default(true),
  organization: idField(undefined, MESSAGES.required),
});
export type TReferenceInput = z.infer<typeof ZReferenceInput>;

/** PATCH organization/reference/{id}/: the list toggle sends is_active, the edit form sends name. */
export const ZReferencePatch = z.object({
  name: ZReferenceName.optional(),
  is_active: z.boolean({ error: 'Must be a valid boolean.' }).optional(),
});
export type TReferencePatch = z.infer<typeof ZReferencePatch>;

export const REFERENCE_ORDERING_FIELDS = ['id', 'name', 'is_active', 'created', 'modified'] as const;
export const REFERENCE_DEFAULT_ORDERING = '-created';

/** GET organization/reference/ */
export const ZReferenceListQuery = ZListQuery.extend({
  organization: idParam('organization').optional(),
  is_active: ZBoolParam.optional(),
});
export type TReferenceListQuery = z.infer<typeof ZReferenceListQuery>;

export const ZReference = z.object({
  id: z.number(),
  name: z.string(),
  is_active: z.boolean(),
  organization: z.number(),
  created: z.string(),
  modified: z.string(),
});
export type TReference = z.infer<typeof ZReference>;

/** Create and update answers: the reference and the console's success message. */
export const ZReferenceSaved = ZReference.extend({ detail: z.string() });
export type TReferenceSaved = z.infer<typeof ZReferenceSaved>;

export const ZReferenceDeleted = z.object({ detail: z.string() });
