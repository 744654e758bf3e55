// "Automatisch erstellen" (/app/stacks/{id}/create): four sources (PDF, photo, text, topic), a
// progress area that shows what the job really does (pages read, drafts found), and the review
// list of drafts (draft-editor.js), filled while the job still runs. The page first asks the
// server which generator it uses (`GET /generation`) and words itself after it: "automatisch"
// with the built-in rules, the model's name with a language model; topics only with a model.
// With a topic, "Weiter vertiefen" asks for the next, deeper batch and appends it to the list.
// `?job=<id>` reviews the drafts of a job started elsewhere (the study partner's "Mach 5 Karten
// mehr dazu"): its progress while it runs, then the same review list.
// All server calls go through api/generation.js.
//
// Once a job from a PDF, a photo or a text has drafts, its source text stands beside them
// (magic/source-view.js): the sentences that became drafts marked, paragraphs and sections without
// any named, and "Karte daraus machen" for any passage.
//
// The screen in parts: magic/render.js (the page's templates), magic/progress.js (the progress
// area), magic/screen.js (the MagicScreen that owns the page's state and listens to it),
// magic/source-model.js, source-markup.js, source-view.js and passage-dialog.js (the source text).

import { render } from '../html.js';
import { loadStrings, t } from '../i18n.js';
import { api } from '../api/client.js';
import { generatorInfo } from '../api/generation.js';
import { sizeText } from '../dropzone.js';
import { errorText, errorView, loadStylesheet, loadingView, retryable } from '../ui.js';
import { pageTemplate } from './magic/render.js';
import { MagicScreen } from './magic/screen.js';

export const mount = retryable(mountPage);

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function mountPage(root, ctx, reload) {
  const id = ctx.params.stackId;
  render(root, loadingView(t('loading')));
  let stack;
  let info;
  try {
    // The page's strings (and the draft editor's) come with it: i18n/magic.*.js; the source
    // text's styles too (css/source.css).
    [stack, info] = await Promise.all([
      api.stack(id), generatorInfo(), loadStrings('magic'), loadStylesheet('/assets/css/source.css'),
    ]);
  } catch (error) {
    if (error.status === 401) return undefined;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  const gen = {
    id, stack, info, stackUrl: `/app/stacks/${id}`, withModel: info.generator === 'model', model: info.model || '',
    size: sizeText(info.maxUploadBytes), batch: info.topicBatchSize,
  };
  render(root, pageTemplate(gen));
  const screen = new MagicScreen(root, gen);
  const jobId = ctx.query.get('job');
  if (jobId && JOB_ID.test(jobId)) screen.run({ source: 'text', jobId });
  return () => screen.destroy();
}
