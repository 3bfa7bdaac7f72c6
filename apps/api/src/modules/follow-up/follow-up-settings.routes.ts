// organization/{id}/follow-up-settings/ (issue 26): an organization's due intervals, digest and reminder SMS texts.
// Rules live in the service.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FOLLOW_UP_ROLES, ZFollowUpSettings, ZFollowUpSettingsInput, ZFollowUpSettingsPatch } from '@sc/shared/follow-up';
import { requireActor } from '../../http/authenticate.ts';
import { TOKEN_SECURITY as security, ZIdParams, metaOf, parseId } from '../../http/route-helpers.ts';
import { getFollowUpSettings, saveFollowUpSettings } from './follow-up-settings.service.ts';
import { followUpGuard } from './follow-up.routes.ts';

const tags = ['follow-up'];
const WHO = `Allowed: ${FOLLOW_UP_ROLES.join(', ')} (403 otherwise); an organization outside the caller's scope answers 404.`;
const PATH = '/organization/:id/follow-up-settings/';

export const followUpSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    PATH,
    {
      preValidation: followUpGuard,
      schema: {
        tags,
        security,
        summary: "The organization's follow-up settings (the defaults, is_custom false, until it saves its own)",
        description: WHO,
        params: ZIdParams,
        response: { 200: ZFollowUpSettings },
      },
    },
    async (request) => getFollowUpSettings(app.ctx, requireActor(request), parseId(request.params.id)),
  );

  // PUT (every field) and PATCH (some, checked merged with the current ones): one handler.
  const saves = [
    { method: 'PUT', body: ZFollowUpSettingsInput, summary: "Save the organization's follow-up settings; new intervals recompute its active cases' due dates" },
    { method: 'PATCH', body: ZFollowUpSettingsPatch, summary: "Change some of the organization's follow-up settings (checked merged with the current ones)" },
  ] as const;
  for (const save of saves) {
    app.route({
      method: save.method,
      url: PATH,
      preValidation: followUpGuard,
      schema: {
        tags,
        security,
        summary: save.summary,
        description: `${WHO} sms_texts keys are Language iso codes (400 on sms_texts.<code> otherwise).`,
        params: ZIdParams,
        body: save.body,
        response: { 200: ZFollowUpSettings },
      },
      handler: async (request) =>
        saveFollowUpSettings(app.ctx, requireActor(request), parseId(request.params.id), request.body, metaOf(request)),
    });
  }
};
