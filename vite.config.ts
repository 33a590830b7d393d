import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Relative base: the built site works from any sub-path and from a plain static file server.
export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 4000,
  },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
});
