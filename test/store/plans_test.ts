import assert from "node:assert/strict";
import {
  DEFAULT_PLAN,
  LIMIT_BOUNDS,
  planNames,
  PLANS,
  resolvePlan,
  WINDOW_BOUNDS,
} from "../../src/store/plans.ts";

Deno.test("plans: the default plan exists and every plan is within the key bounds", () => {
  assert.ok(planNames().includes(DEFAULT_PLAN));
  for (const name of planNames()) {
    const { limit, window } = resolvePlan(name);
    assert.ok(Number.isInteger(limit) && limit >= LIMIT_BOUNDS.min && limit <= LIMIT_BOUNDS.max);
    assert.ok(Number.isInteger(window) && window >= WINDOW_BOUNDS.min);
    assert.ok(window <= WINDOW_BOUNDS.max);
  }
});

Deno.test("plans: higher plans allow more requests per hour", () => {
  const perHour = (name: string) => PLANS[name].limit * (3600 / PLANS[name].window);
  assert.ok(perHour("free") < perHour("starter"));
  assert.ok(perHour("starter") < perHour("pro"));
  assert.ok(perHour("pro") < perHour("enterprise"));
});

Deno.test("plans: an unknown or inherited name is refused with the list of plans", () => {
  assert.throws(() => resolvePlan("gold"), /Unknown plan "gold" \(plans: free, starter/);
  assert.throws(() => resolvePlan("toString"), RangeError);
});
