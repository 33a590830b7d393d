/**
 * Imported first by the page's entry: zod compiles fast parsers with Function() when eval is
 * allowed, and the page's Content-Security-Policy forbids eval. Saying so before any module parses
 * anything keeps zod from probing (the probe itself is a reported CSP violation).
 */
import { z } from 'zod';

z.config({ jitless: true });
