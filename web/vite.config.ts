import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// Served by the service at /app/ under `default-src 'self'`: hashed files only, nothing inline.
export default defineConfig({
  base: '/app/',
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
});
