import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * The built page's Content-Security-Policy (a <meta>, since the site is served by any static
 * server): scripts and workers from the page's own origin only (workers also from blob:), no inline
 * script, no eval, no remote origin for anything. Styles allow inline because Monaco and d3 set
 * them at run time. Only the build gets it: the dev server injects inline scripts of its own.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'fairground-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP },
          injectTo: 'head-prepend',
        },
      ],
    },
  };
}

// Relative base: the built site works from any sub-path and from a plain static file server.
export default defineConfig({
  base: './',
  plugins: [react(), contentSecurityPolicy()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 4000,
    // Modules run in the order their imports say, even across chunks: src/csp.ts must switch zod to
    // its eval-free mode before any schema is built, and a shared chunk would otherwise run first.
    rolldownOptions: { output: { strictExecutionOrder: true } },
  },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
});
