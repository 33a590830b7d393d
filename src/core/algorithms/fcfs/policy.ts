/**
 * FCFS: admit in arrival order at this worker; stop at the first request that does not fit
 * (head-of-line blocking, as vLLM's default scheduler does). A preempted request goes back to the
 * front of the queue.
 */
import type { SimRequest } from '../../sim/request';
import { Deque } from '../../replica/deque';
import type { AdmissionContext, LocalPolicy } from '../../replica/local-policy';

export class FcfsPolicy implements LocalPolicy {
  readonly name = 'fcfs';
  private readonly queue = new Deque<SimRequest>();

  size(): number {
    return this.queue.size;
  }

  enqueue(req: SimRequest, _w: unknown, front: boolean): void {
    if (front) this.queue.pushFront(req);
    else this.queue.pushBack(req);
  }

  admit(ctx: AdmissionContext): void {
    while (this.queue.size > 0) {
      const head = this.queue.at(0);
      if (ctx.tryAdmit(head, 'first in line') !== 'admitted') return;
      this.queue.popFront();
    }
  }

  waiting(limit: number): SimRequest[] {
    return this.queue.toArray(limit);
  }
}
