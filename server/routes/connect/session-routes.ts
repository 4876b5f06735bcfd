/** POST /connect/logout (the whole session ends) and POST /connect/warehouse (a token for another warehouse). */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../engine/errors.ts';

export function sessionRoutes(app: FastifyInstance) {
  app.post('/connect/logout', { preHandler: app.authenticate({ allowMustChange: true }) }, async (req) => {
    const p = req.principal!;
    // the whole session ends: the tokens refreshed from this one, and the one it was refreshed from
    await app.tokens.endSession(p);
    req.log.info({ event: 'logout', userId: p.userId }, 'logout');
    return { status: 200 };
  });

  app.post(
    '/connect/warehouse',
    {
      preHandler: app.authenticate(),
      schema: { body: { type: 'object', required: ['warehouse'], additionalProperties: false, properties: { warehouse: { type: 'string', maxLength: 20 } } } },
    },
    async (req) => {
      const p = req.principal!;
      const wh = await app.tokens.warehouse((req.body as { warehouse: string }).warehouse);
      if (!wh) throw new AppError(400, 'error.wrongWarehouse');
      const acc = (await app.tokens.account(p.accountId))!;
      const t = app.tokens.issue(acc, wh.code, p.locale, { authTime: p.authTime, sessionId: p.sessionId });
      await app.tokens.revoke(p.tokenId, p.tokenExp);
      return { status: 200, access_token: t.token, token_type: 'Bearer', expires_in: t.expiresIn, account_status: Number(acc.status) };
    },
  );
}
