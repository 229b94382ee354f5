import { createElement, type ComponentType } from 'react';
import { useParams } from 'react-router-dom';
import { AccessDenied, useCanAccess, useCreatePath, useGetOne, useResourceContext, type HttpError } from 'react-admin';
import { Loading } from '../layout/Loading';
import { RecordNotFound } from '../layout/RecordNotFound';

/** A record that is not there: a 404, or an id the server refuses as malformed (a 400 naming `id`). */
const isMissing = (e: HttpError | null | undefined) => e?.status === 404 || (e?.status === 400 && !!e.body?.errors?.id);

/**
 * An edit page that shows the not-found screen (RecordNotFound, back to its list) for an id that does not exist
 * (/users/abc, /accounts/999999) or is another user's, instead of an empty form with a toast. It reads the record with the same query as the page (`meta` as
 * the page's queryOptions.meta), so the page finds it cached and nothing is fetched twice.
 */
export function withNotFound<P extends object>(
  Page: ComponentType<P>,
  meta?: Record<string, unknown>,
): ComponentType<P> {
  const Guarded = (props: P) => {
    const resource = useResourceContext();
    const { id } = useParams();
    const createPath = useCreatePath();
    // Nothing is read before the role may open the page: a user at /users/1 gets react-admin's access-denied
    // screen, and the page (whose own read would race the redirect and toast 'Елемент не існує') is not mounted.
    const access = useCanAccess({ resource, action: 'edit' });
    const { data, error, isPending } = useGetOne(
      resource!,
      { id: id!, meta },
      {
        enabled: access.canAccess === true,
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
    );
    if (access.isPending) return createElement(Loading);
    if (!access.canAccess) return createElement(AccessDenied);
    if (isMissing(error as HttpError | null))
      return createElement(RecordNotFound, { back: createPath({ resource, type: 'list' }) });
    if (isPending && !data) return createElement(Loading);
    return createElement(Page, props);
  };
  Guarded.displayName = `WithNotFound(${Page.displayName ?? Page.name ?? 'Page'})`;
  return Guarded;
}
