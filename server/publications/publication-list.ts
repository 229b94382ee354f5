import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { PUBLICATION_SORTS, PublicationListParams } from '../../src/contract/list-queries';
import type { VideoStatus } from '../../src/contract/statuses';
import type { Database } from '../db/types';
import { matchesText, type SortColumns } from '../http/list-query';

/**
 * The YouTube list's search, filters and sort (`GET /api/upload-video?q&status&userId&platform&dateFrom&dateTo
 * &sort&order`). A
 * publication's status is not stored: it is publicationStatus() of its videos (src/contract/publications.ts),
 * so the status filter asks the same questions in SQL, in the same order: any error → error, else any
 * loading → loading, else any publication → publication, else all success → success, else noactive.
 */
export const PUBLICATION_SORT: SortColumns<(typeof PUBLICATION_SORTS)[number]> = {
  id: 'publications.id',
  title: 'publications.title',
  // Creation order is id order (both are set by the insert); never ISO text ordered as text (issue 17).
  createdAt: 'publications.id',
  user: 'users.login',
};

type Eb = ExpressionBuilder<Database, 'publications'>;
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- Kysely's own type for "no columns"
type Base = SelectQueryBuilder<Database, 'publications', {}>;

const videos = (eb: Eb) =>
  eb.selectFrom('videos').select(sql.lit(1).as('one')).whereRef('videos.publicationId', '=', 'publications.id');
const some = (eb: Eb, statuses: VideoStatus[]) => eb.exists(videos(eb).where('videos.status', 'in', statuses));
const none = (eb: Eb, statuses: VideoStatus[]) => eb.not(some(eb, statuses));

function statusIs(eb: Eb, status: VideoStatus) {
  switch (status) {
    case 'error':
      return some(eb, ['error']);
    case 'loading':
      return eb.and([none(eb, ['error']), some(eb, ['loading'])]);
    case 'publication':
      return eb.and([none(eb, ['error', 'loading']), some(eb, ['publication'])]);
    case 'success':
      return eb.and([eb.exists(videos(eb)), eb.not(eb.exists(videos(eb).where('videos.status', '!=', 'success')))]);
    case 'noactive':
      return eb.and([
        none(eb, ['error', 'loading', 'publication']),
        eb.or([eb.not(eb.exists(videos(eb))), eb.exists(videos(eb).where('videos.status', '!=', 'success'))]),
      ]);
  }
}

export function filterPublications(base: Base, params: PublicationListParams): Base {
  let q = base;
  if (params.q) {
    const text = params.q;
    q = q.where((eb) =>
      eb.or([
        matchesText(text, ['publications.title'], { id: 'publications.id' }),
        eb(
          'publications.requestId',
          'in',
          eb
            .selectFrom('createVideoRequests')
            .select('id')
            .where(matchesText(text, ['createVideoRequests.idUpload'])),
        ),
      ]),
    );
  }
  if (params.status) {
    const status = params.status;
    q = q.where((eb) => statusIs(eb, status));
  }
  if (params.userId) q = q.where('publications.userId', '=', params.userId);
  const platform = params.platform;
  if (platform)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('publicationPlatforms')
          .select('publicationPlatforms.publicationId')
          .whereRef('publicationPlatforms.publicationId', '=', 'publications.id')
          .where('publicationPlatforms.platform', '=', platform),
      ),
    );
  const { dateFrom, dateTo } = params;
  if (dateFrom !== undefined || dateTo !== undefined) {
    // A video planned in the range (videos.date_ms, epoch ms: migration 018).
    q = q.where((eb) => {
      let v = videos(eb);
      if (dateFrom !== undefined) v = v.where('videos.dateMs', '>=', dateFrom);
      if (dateTo !== undefined) v = v.where('videos.dateMs', '<=', dateTo);
      return eb.exists(v);
    });
  }
  return q;
}
