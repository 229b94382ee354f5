import { API } from '../contract/endpoints';
import { readAuth } from './authStore';
import { refreshOrEndSession } from './httpClient';
import { currentLocale } from './locale';

/** The audit log's CSV under the list's filters, saved as the server names it (a 401 refreshes and tries again). */
export async function downloadAuditCsv(filter: Record<string, unknown>): Promise<void> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v != null && v !== '') query.set(k, String(v));
  const get = () =>
    fetch(`${API.audit.export}?${query}`, {
      headers: { Authorization: `Bearer ${readAuth().accessToken ?? ''}`, 'Accept-Language': currentLocale() },
      credentials: 'include',
    });
  let res = await get();
  if (res.status === 401) {
    await refreshOrEndSession();
    res = await get();
  }
  if (!res.ok) throw new Error((await res.json().catch(() => ({})))?.message ?? res.statusText);
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'audit.csv';
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
