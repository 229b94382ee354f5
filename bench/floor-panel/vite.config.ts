import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The floor app's build: Vite's defaults, into .bench/floor-panel/. */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  logLevel: 'warn',
  // One file of about 1 MB, as a bare app builds: the warning about it says nothing here.
  build: {
    outDir: resolve(import.meta.dirname, '../../.bench/floor-panel'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
});
