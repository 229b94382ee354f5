import { importBrowserBench } from './import-browser.ts';
await importBrowserBench(); process.exit(0);
