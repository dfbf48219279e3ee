#!/usr/bin/env bash
# npm run validate: everything CI checks, on this machine as it is (nothing is installed) — PostgreSQL
# and Redis reachable, the production build, typecheck, lint, the UI catalogs, the unit/API suite on
# SQLite and again on PostgreSQL + Redis, the Playwright suite in Debian Chromium, and the deploy suites
# (the production tree; compose.yaml's topology as processes behind Debian's nginx). .ci/run installs
# what a clean machine lacks, then runs this. Ends with one line: "N passed, N failed"; exits non-zero
# when a test or a step failed. About 35 minutes on 2 cores.
#
# From .ci/run: VALIDATE_FAILED_STEPS (its failed steps, one per line) and VALIDATE_STARTED_AT (epoch
# seconds) carry its own part into the summary.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp
export TMPDIR="${TMPDIR:-/tmp}"
failed_steps=()
[ -n "${VALIDATE_FAILED_STEPS:-}" ] && mapfile -t failed_steps <<< "$VALIDATE_FAILED_STEPS"
started_at="${VALIDATE_STARTED_AT:-$(date +%s)}"

step() { echo; echo "=== $* ==="; }

step "services"
PG_URL="postgres://postgres@127.0.0.1:5432/test"
REDIS_URL_TEST="redis://127.0.0.1:6379"
node -e "const c=new (require('net').Socket)();c.setTimeout(2000);c.connect(5432,'127.0.0.1',()=>{console.log('postgres: up');process.exit(0)}).on('error',()=>{console.log('postgres: DOWN');process.exit(1)})" || failed_steps+=("postgres not reachable")
node -e "const c=new (require('net').Socket)();c.setTimeout(2000);c.connect(6379,'127.0.0.1',()=>{console.log('redis: up');process.exit(0)}).on('error',()=>{console.log('redis: DOWN');process.exit(1)})" || failed_steps+=("redis not reachable")

step "build"
npm run build || failed_steps+=("build")

step "typecheck"
npm run typecheck || failed_steps+=("typecheck")

step "lint"
npm run lint || failed_steps+=("lint")

step "UI catalogs (40 languages)"
npm run --silent i18n:check || failed_steps+=("i18n catalogs")

step "unit and API tests on SQLite"
rm -f .tmp/unit-sqlite.json .tmp/unit-postgres.json .tmp/e2e-results.json .tmp/deploy-tree.json .tmp/deploy-topology.json
npm test -- --reporter=default --reporter=json --outputFile.json=.tmp/unit-sqlite.json || failed_steps+=("npm test (sqlite)")

step "unit and API tests on PostgreSQL + Redis"
TEST_DATABASE_URL="$PG_URL" TEST_REDIS_URL="$REDIS_URL_TEST" \
  npm test -- --reporter=default --reporter=json --outputFile.json=.tmp/unit-postgres.json || failed_steps+=("npm test (postgres)")

step "end-to-end tests in Chromium"
npm run test:e2e || failed_steps+=("npm run test:e2e")

step "production tree"
npm run test:deploy -- deploy/test/production-tree.test.ts \
  --reporter=default --reporter=json --outputFile.json=.tmp/deploy-tree.json || failed_steps+=("production tree")

step "deploy topology"
TEST_DATABASE_URL="$PG_URL" TEST_REDIS_URL="$REDIS_URL_TEST" npm run test:deploy -- deploy/test/topology.test.ts \
  --reporter=default --reporter=json --outputFile.json=.tmp/deploy-topology.json || failed_steps+=("deploy topology")

step "summary"
node -e '
const fs = require("fs");
let passed = 0, failed = 0;
for (const f of [".tmp/unit-sqlite.json", ".tmp/unit-postgres.json", ".tmp/deploy-tree.json", ".tmp/deploy-topology.json"]) {
  if (!fs.existsSync(f)) { console.log(f + ": missing (suite did not run)"); failed += 1; continue; }
  const r = JSON.parse(fs.readFileSync(f, "utf8"));
  console.log(`${f}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
  passed += r.numPassedTests; failed += r.numFailedTests;
  if (r.numTotalTests === 0) failed += 1;
  // Name each failure here: CI keeps only the tail of this output.
  for (const file of r.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status !== "failed") continue;
      const why = String((t.failureMessages ?? [])[0] ?? "").split("\n").slice(0, 3).join(" | ").slice(0, 400);
      console.log(`  FAILED ${file.name.replace(process.cwd() + "/", "")} › ${t.fullName}: ${why}`);
    }
  }
}
const e = ".tmp/e2e-results.json";
if (!fs.existsSync(e)) { console.log(e + ": missing (suite did not run)"); failed += 1; }
else {
  const s = JSON.parse(fs.readFileSync(e, "utf8")).stats;
  console.log(`${e}: ${s.expected} passed, ${s.unexpected + s.flaky} failed`);
  passed += s.expected; failed += s.unexpected + s.flaky;
  if (s.expected + s.unexpected === 0) failed += 1;
  const walk = (suite, where) => {
    for (const spec of suite.specs ?? []) for (const t of spec.tests ?? []) {
      if (t.status === "expected" || t.status === "skipped") continue;
      const err = (t.results ?? []).map((x) => x.error?.message ?? "").find(Boolean) ?? "";
      console.log(`  ${t.status.toUpperCase()} ${where}${spec.title}: ${err.split("\n").slice(0, 3).join(" | ").slice(0, 400)}`);
    }
    for (const child of suite.suites ?? []) walk(child, where + child.title + " › ");
  };
  for (const suite of JSON.parse(fs.readFileSync(e, "utf8")).suites ?? []) walk(suite, suite.title + " › ");
}
fs.writeFileSync(".tmp/ci-counts", `${passed} ${failed}`);
'
read -r PASSED FAILED < .tmp/ci-counts
if [ "${#failed_steps[@]}" -gt 0 ]; then
  echo "failed steps: ${failed_steps[*]}"
  [ "$FAILED" -eq 0 ] && FAILED=${#failed_steps[@]}
fi
echo "duration: $(( $(date +%s) - started_at )) s"
echo "${PASSED} passed, ${FAILED} failed"
[ "$FAILED" -eq 0 ] && [ "${#failed_steps[@]}" -eq 0 ]
