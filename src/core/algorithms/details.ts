/**
 * Every algorithm's decision detail, one typed member per algorithm, tagged by `algo` (each type is
 * owned by its algorithm's folder). A worker-local policy attaches a `LocalDecisionDetail` to an
 * admission, a router a `RouteDecisionDetail` to a dispatch; the explainers narrow on the tag.
 * FCFS, round-robin, random and per-client round-robin write no detail of their own.
 */
import type { DfsWeightDetail } from './dfs-weight/policy';
import type { DlpmAdmitDetail } from './dlpm/detail';
import type { DoubleQDispatchDetail } from './doubleq/detail';
import type { EdfDetail } from './edf/policy';
import type { FcfsMpqDetail } from './fcfs-mpq/detail';
import type { KvAwareDetail } from './kv-aware/policy';
import type { LeastLoadedDetail } from './least-loaded/policy';
import type { LpmDetail } from './lpm/policy';
import type { LrsDetail } from './lrs/policy';
import type { PreblePlacementDetail } from './preble/detail';
import type { PriorityFcfsDetail } from './priority-fcfs/policy';
import type { PullDetail } from './pull/policy';
import type { ReversePriorityDetail } from './reverse-priority/policy';
import type { SjfDetail } from './sjf/policy';
import type { VtcAdmitDetail } from './vtc/detail';

export type LocalDecisionDetail =
  | PriorityFcfsDetail
  | SjfDetail
  | ReversePriorityDetail
  | LpmDetail
  | DfsWeightDetail
  | VtcAdmitDetail
  | DlpmAdmitDetail
  | EdfDetail
  | LrsDetail
  | FcfsMpqDetail;

export type RouteDecisionDetail =
  | LeastLoadedDetail
  | PullDetail
  | PreblePlacementDetail
  | DoubleQDispatchDetail
  | KvAwareDetail;

export type AlgorithmDetail = LocalDecisionDetail | RouteDecisionDetail;

export type {
  DfsWeightDetail,
  DlpmAdmitDetail,
  DoubleQDispatchDetail,
  EdfDetail,
  FcfsMpqDetail,
  KvAwareDetail,
  LeastLoadedDetail,
  LpmDetail,
  LrsDetail,
  PreblePlacementDetail,
  PriorityFcfsDetail,
  PullDetail,
  ReversePriorityDetail,
  SjfDetail,
  VtcAdmitDetail,
};
