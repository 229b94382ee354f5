import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { signInMessages } from './scripts/vite/signInMessages.ts';
import { panelMessages } from './scripts/vite/panelMessages.ts';
import { precompress } from './scripts/vite/precompress.ts';
import { lazyTooltip } from './scripts/vite/lazyTooltip.ts';
import { chunkGroups } from './scripts/vite/chunkPlan.ts';

// One copy each of react-router, MUI and react-query (see notes/react-admin.md §0).
export default defineConfig(async ({ command }) => ({
  plugins: [react(), signInMessages(), panelMessages(), lazyTooltip(), precompress()],
  resolve: {
    alias: [
      // A polyfill of what every supported browser has (see the file).
      { find: 'object.entries', replacement: resolve(import.meta.dirname, 'src/shims/object-entries.cjs') },
      // The CSV library loads on the first export, not with every list (see the file).
      // react-admin imports lodash one function at a time from its CommonJS files ('lodash/get.js'): the same functions
      // as ES modules bundle smaller (one scope, no module wrappers, shared helpers minified together).
      { find: /^lodash\/([\w.]+?)(\.js)?$/, replacement: 'lodash-es/$1.js' },
      { find: /^jsonexport\/dist\/index\.js$/, replacement: resolve(import.meta.dirname, 'src/shims/jsonexport.ts') },
    ],
    dedupe: ['react', 'react-dom', 'react-router', 'react-router-dom', '@mui/material', '@tanstack/react-query'],
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${process.env.PORT ?? 3000}`, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    // A page's code in fewer, larger files, grouped from a first pass's chunks (see the file).
    rolldownOptions: { output: { codeSplitting: { groups: await chunkGroups(import.meta.filename, command) } } },
  },
}));
