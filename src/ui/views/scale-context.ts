/**
 * The y scales several renders of the views share (service-scale.ts computes them): Compare's two
 * columns, or the steps of a tour, so the same height means the same amount in each. A module of its
 * own so the views that read it (Client service, Guarantees) and the code that computes it from them
 * do not import each other.
 */
import { createContext } from 'react';

export interface ServiceScale {
  /** Largest cumulative service of any client in any run (service units). */
  cumulative: number;
  /** Largest service rate of any client in any run (service units/s). */
  rate: number;
  /** Top of the Guarantees gap axis any run needs (service units; 0 when none has a gap yet). */
  gap: number;
  /**
   * Set while a tour runs (its id): the views keep the space their parts have taken during the tour
   * (use-reserve.ts), so a step does not move the charts the tour compares.
   */
  reserve?: string;
}

export const ServiceScaleContext = createContext<ServiceScale | null>(null);
