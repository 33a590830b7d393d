/// <reference lib="webworker" />
/**
 * A sweep worker: runs one sweep point (or one export replay) at a time, with comlink. The UI starts
 * a few of these and hands each the next point; terminating a worker cancels its point.
 */
import { expose } from 'comlink';
import { sweepWorkerApi } from './sweep-runner';

expose(sweepWorkerApi);
