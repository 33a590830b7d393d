/**
 * Click-to-seek on time charts: the app provides what a click at simulated time t should do (seek the
 * run there); every TimeChart inside picks it up. Without a provider (tests, exports) charts are
 * plain pictures.
 */
import { createContext } from 'react';

export type SeekToTime = (simTimeS: number) => void;

export const TimeSeekContext = createContext<SeekToTime | null>(null);
