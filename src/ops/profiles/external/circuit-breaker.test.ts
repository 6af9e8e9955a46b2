import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CircuitBreaker } from './circuit-breaker.js';

it('opens after N consecutive failures, lets one trial through after the open period, closes on success', () => {
  let now = 0;
  const breaker = new CircuitBreaker(3, 1_000, () => now);
  for (let i = 0; i < 2; i++) {
    assert.ok(breaker.tryAcquire());
    breaker.failed();
  }
  assert.equal(breaker.state, 'closed');
  assert.ok(breaker.tryAcquire());
  breaker.failed();
  assert.equal(breaker.state, 'open');
  assert.equal(breaker.tryAcquire(), false);
  now = 999;
  assert.equal(breaker.tryAcquire(), false);
  now = 1_000;
  assert.equal(breaker.state, 'half_open');
  assert.ok(breaker.tryAcquire(), 'one trial');
  assert.equal(breaker.tryAcquire(), false, 'only one trial at a time');
  breaker.failed();
  assert.equal(breaker.state, 'open', 'a failed trial opens it again');
  now = 2_000;
  assert.ok(breaker.tryAcquire());
  breaker.succeeded();
  assert.equal(breaker.state, 'closed');
  assert.ok(breaker.tryAcquire());
});

it('a success resets the consecutive-failure count', () => {
  const breaker = new CircuitBreaker(2, 1_000, () => 0);
  breaker.failed();
  breaker.succeeded();
  breaker.failed();
  assert.equal(breaker.state, 'closed');
});
