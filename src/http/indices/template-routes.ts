/**
 * Legacy index templates: `PUT /_template/{name}` (`?create=true` refuses to replace, `?order=`),
 * `GET|HEAD /_template[/{names}]` (comma lists and wildcards; a name that matches nothing is a
 * 404 with `{}`, as in Elasticsearch), `DELETE /_template/{name}`. Templates live in the
 * metastore and apply when an index is created (catalog-link.ts, index-routes.ts). Writing or
 * deleting a template needs `write` on each of its index patterns.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { forbiddenIndexError, type AccessContext } from '../../auth/index.js';
import { BadRequestError, NotFoundError } from '../../common/index.js';
import { wildcardToRegExp } from '../../engine/index.js';
import type { TemplateRecord } from '../../metastore/index.js';
import { accessOf } from '../auth-hook.js';
import type { ApiDeps } from '../deps.js';
import { boolParam, intParam } from '../query-params.js';
import { jsonObjectBody } from '../request-body.js';
import { ACKNOWLEDGED } from './index-views.js';
import { expressionParts, type IndicesRequest } from './targets.js';
import { parseTemplate, templateView } from './template-model.js';

/** A template pattern is checked as a name: a `logs-*` grant covers `logs-*` and `logs-app-*`, not `*`. */
function assertPatternsWritable(access: AccessContext, patterns: readonly string[]): void {
  for (const pattern of patterns) if (!access.can('write', pattern)) throw forbiddenIndexError('write', pattern);
}

/** Templates whose names match the comma-separated names or patterns (all when none). */
export async function selectTemplates(deps: ApiDeps, names: string | undefined): Promise<{ templates: TemplateRecord[]; matchedAny: boolean }> {
  const all = await deps.metastore.templates.listTemplates();
  const parts = expressionParts(names);
  if (parts.length === 0 || parts.includes('_all') || parts.includes('*')) return { templates: all, matchedAny: true };
  const matchers = parts.map((p) => wildcardToRegExp(p));
  const templates = all.filter((t) => matchers.some((m) => m.test(t.name)));
  return { templates, matchedAny: templates.length > 0 };
}

export function registerTemplateRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.put('/_template/:index', async (request: IndicesRequest) => {
    const name = request.params.index!;
    const body = jsonObjectBody(request.body);
    if (body === undefined) throw new BadRequestError('Validation Failed: 1: index patterns are missing;', 'action_request_validation_exception');
    const parsed = parseTemplate(name, body, intParam(request.query, 'order'));
    assertPatternsWritable(accessOf(request), parsed.indexPatterns);
    const create = boolParam(request.query, 'create') ?? false;
    if (!create) {
      // replacing a template also takes write on the patterns it had
      const existing = await deps.metastore.templates.getTemplate(name);
      if (existing) assertPatternsWritable(accessOf(request), existing.indexPatterns);
    }
    await deps.metastore.templates.putTemplate({ name, indexPatterns: parsed.indexPatterns, order: parsed.order, body: parsed.body }, { create });
    return ACKNOWLEDGED;
  });

  const get = async (request: IndicesRequest, reply: FastifyReply) => {
    const { templates, matchedAny } = await selectTemplates(deps, request.params.index);
    const flatSettings = boolParam(request.query, 'flat_settings') ?? false;
    const body: Record<string, unknown> = {};
    for (const t of templates) body[t.name] = templateView(t, { flatSettings });
    return reply.code(matchedAny ? 200 : 404).send(body);
  };
  app.get('/_template', get);
  app.get('/_template/:index', get);

  app.delete('/_template/:index', async (request: IndicesRequest) => {
    const names = request.params.index!;
    const { templates } = await selectTemplates(deps, names);
    if (templates.length === 0) throw new NotFoundError(`index_template [${names}] missing`, 'index_template_missing_exception');
    for (const t of templates) assertPatternsWritable(accessOf(request), t.indexPatterns);
    for (const t of templates) await deps.metastore.templates.deleteTemplate(t.name);
    return ACKNOWLEDGED;
  });
}
