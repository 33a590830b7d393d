// Prints the step-time model's table (README section "Step-time model"): `npx tsx scripts/cost-table.ts`.
import { costModelTable } from '../src/core/cost/index';

console.log(costModelTable());
