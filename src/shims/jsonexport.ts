// react-admin's default CSV exporter (ra-core's defaultExporter, the default of every List) imports jsonexport,
// so each list page loaded it (about 3 KB gzip) though no list of the panel shows an export button. vite.config.ts
// points ra-core's import here: the library loads on the first export. It answers through its callback, as before.
type Callback = (err: Error | null, csv?: string) => void;

export default function jsonExport(data: unknown, ...rest: unknown[]): void {
  const done = rest.at(-1) as Callback;
  import('jsonexport/dist').then(
    (m) => m.default(data, ...rest),
    (e: Error) => done(e),
  );
}
