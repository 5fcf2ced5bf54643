/**
 * The word lists of the `field` proxy source (proxy-field.mjs): twelve projects with their stacks, the
 * features their notes are about, what goes wrong with them (with causes, fixes and error messages),
 * the conventions, chores and reference facts a team writes down, each with other ways a developer
 * would ask about it. Written from what engineering vaults hold, not from any ranking's vocabulary.
 * `{F}` in a template is the feature's words, `{Id}` its identifier stem, `{dir}`, `{table}`, `{ext}`,
 * `{test}`, `{pm}`, `{run}`, `{db}`, `{ci}` the project's; `{n}` a number.
 */

export const PROJECTS = [
  {
    name: 'billing-api',
    ext: 'ts',
    dir: 'src',
    pm: 'pnpm',
    run: 'pnpm vitest run',
    db: 'postgres',
    ci: 'GitHub Actions',
    lang: 'TypeScript',
  },
  {
    name: 'checkout-web',
    ext: 'tsx',
    dir: 'app',
    pm: 'pnpm',
    run: 'pnpm playwright test',
    db: 'postgres',
    ci: 'GitHub Actions',
    lang: 'TypeScript',
  },
  {
    name: 'mobile-app',
    ext: 'tsx',
    dir: 'src',
    pm: 'yarn',
    run: 'yarn jest',
    db: 'sqlite',
    ci: 'Bitrise',
    lang: 'TypeScript',
  },
  {
    name: 'data-pipeline',
    ext: 'py',
    dir: 'pipeline',
    pm: 'poetry',
    run: 'poetry run pytest',
    db: 'bigquery',
    ci: 'GitLab CI',
    lang: 'Python',
  },
  {
    name: 'auth-service',
    ext: 'go',
    dir: 'internal',
    pm: 'go',
    run: 'go test ./...',
    db: 'postgres',
    ci: 'GitHub Actions',
    lang: 'Go',
  },
  {
    name: 'infra',
    ext: 'tf',
    dir: 'modules',
    pm: 'terraform',
    run: 'terraform plan',
    db: 'rds',
    ci: 'Atlantis',
    lang: 'HCL',
  },
  {
    name: 'search-indexer',
    ext: 'rs',
    dir: 'src',
    pm: 'cargo',
    run: 'cargo test',
    db: 'elasticsearch',
    ci: 'Buildkite',
    lang: 'Rust',
  },
  {
    name: 'admin-cli',
    ext: 'ts',
    dir: 'src',
    pm: 'npm',
    run: 'npm test',
    db: 'postgres',
    ci: 'GitHub Actions',
    lang: 'TypeScript',
  },
  {
    name: 'docs-site',
    ext: 'mdx',
    dir: 'docs',
    pm: 'pnpm',
    run: 'pnpm build',
    db: 'algolia',
    ci: 'Netlify',
    lang: 'MDX',
  },
  {
    name: 'ml-ranker',
    ext: 'py',
    dir: 'ranker',
    pm: 'uv',
    run: 'uv run pytest',
    db: 'feature store',
    ci: 'GitHub Actions',
    lang: 'Python',
  },
  {
    name: 'notify-service',
    ext: 'kt',
    dir: 'src/main/kotlin',
    pm: 'gradle',
    run: './gradlew test',
    db: 'mysql',
    ci: 'Jenkins',
    lang: 'Kotlin',
  },
  {
    name: 'analytics-dash',
    ext: 'vue',
    dir: 'src',
    pm: 'pnpm',
    run: 'pnpm vitest',
    db: 'clickhouse',
    ci: 'CircleCI',
    lang: 'TypeScript',
  },
];

/** Features: `name` as notes write it, `para` as someone asks who does not remember the note's words. */
export const FEATURES = [
  { name: 'csv export', id: 'CsvExport', para: ['spreadsheet download', 'downloading the report as a file'] },
  { name: 'invoice pdf', id: 'InvoicePdf', para: ['billing statement document', 'printable bill'] },
  { name: 'login form', id: 'LoginForm', para: ['sign-in screen', 'page where users authenticate'] },
  { name: 'password reset', id: 'PasswordReset', para: ['forgotten credentials flow', 'account recovery'] },
  { name: 'image upload', id: 'ImageUpload', para: ['photo attachment', 'attaching pictures'] },
  { name: 'search box', id: 'SearchBox', para: ['lookup field', 'query bar at the top'] },
  { name: 'push notifications', id: 'PushNotification', para: ['mobile alerts', 'phone banners'] },
  { name: 'user profile', id: 'UserProfile', para: ['account settings screen', 'personal details page'] },
  { name: 'stripe webhook', id: 'StripeWebhook', para: ['payment provider callback', 'incoming charge events'] },
  { name: 'onboarding wizard', id: 'OnboardingWizard', para: ['first-run steps', 'signup walkthrough'] },
  { name: 'audit log', id: 'AuditLog', para: ['activity trail', 'history of who changed what'] },
  { name: 'rate limiter', id: 'RateLimiter', para: ['request throttling', 'cap on calls per minute'] },
  { name: 'session cookie', id: 'SessionCookie', para: ['browser auth token', 'signed-in state'] },
  { name: 'dashboard charts', id: 'DashboardChart', para: ['graphs on the overview', 'plots on the home view'] },
  { name: 'email digest', id: 'EmailDigest', para: ['weekly summary mail', 'newsletter roundup'] },
  { name: 'shopping cart', id: 'ShoppingCart', para: ['basket', 'items a buyer collected'] },
  { name: 'coupon codes', id: 'CouponCode', para: ['discount vouchers', 'promo redemption'] },
  { name: 'file sync', id: 'FileSync', para: ['folder mirroring', 'keeping documents identical across devices'] },
  { name: 'nightly backup', id: 'NightlyBackup', para: ['overnight snapshot job', 'the 2am dump'] },
  { name: 'feature flags', id: 'FeatureFlag', para: ['toggles', 'gradual rollout switches'] },
  { name: 'dark mode', id: 'DarkMode', para: ['night theme', 'black colour scheme'] },
  { name: 'order history', id: 'OrderHistory', para: ['past purchases list', 'previous orders screen'] },
  {
    name: 'address autocomplete',
    id: 'AddressAutocomplete',
    para: ['street suggestions', 'postcode lookup while typing'],
  },
  { name: 'job queue', id: 'JobQueue', para: ['background workers', 'deferred tasks'] },
  { name: 'token refresh', id: 'TokenRefresh', para: ['renewing credentials', 'access grant renewal'] },
  { name: 'video transcoding', id: 'VideoTranscode', para: ['converting clips', 'movie encoding step'] },
  { name: 'sitemap generator', id: 'SitemapGenerator', para: ['crawler index xml', 'list of urls for google'] },
  { name: 'ranking model', id: 'RankingModel', para: ['relevance scorer', 'ordering of results by the ml thing'] },
  { name: 'embedding cache', id: 'EmbeddingCache', para: ['vector memo', 'stored vectors reuse'] },
  { name: 'kafka consumer', id: 'KafkaConsumer', para: ['event stream reader', 'topic subscriber'] },
  { name: 'terraform state', id: 'TerraformState', para: ['infra statefile', 'tfstate lock'] },
  { name: 'helm chart', id: 'HelmChart', para: ['kubernetes package', 'k8s deployment manifest'] },
  { name: 'grpc gateway', id: 'GrpcGateway', para: ['rpc proxy', 'protobuf http bridge'] },
  { name: 'i18n strings', id: 'I18nString', para: ['translations', 'localized copy'] },
  { name: 'accessibility audit', id: 'A11yAudit', para: ['screen reader checks', 'a11y review'] },
  { name: 'report scheduler', id: 'ReportScheduler', para: ['cron for emailed reports', 'timed report sending'] },
  { name: 'tenant isolation', id: 'TenantIsolation', para: ['multi-customer separation', 'keeping orgs apart'] },
  { name: 'refund flow', id: 'RefundFlow', para: ['money-back process', 'returning a payment'] },
  { name: 'api pagination', id: 'ApiPagination', para: ['paging through results', 'next-page cursors'] },
  {
    name: 'websocket reconnect',
    id: 'WebsocketReconnect',
    para: ['live connection recovery', 'realtime link dropping'],
  },
  { name: 'markdown renderer', id: 'MarkdownRenderer', para: ['rich text display', 'formatting of user posts'] },
  { name: 'geo lookup', id: 'GeoLookup', para: ['ip to country', 'location detection'] },
  { name: 'signup captcha', id: 'SignupCaptcha', para: ['bot check on registration', 'robot challenge'] },
  { name: 'price calculator', id: 'PriceCalculator', para: ['quote totals', 'cost estimate math'] },
  { name: 'health check', id: 'HealthCheck', para: ['liveness probe', 'readiness endpoint'] },
  {
    name: 'search reindex',
    id: 'SearchReindex',
    para: ['rebuilding the elastic documents', 'refreshing the lookup data'],
  },
];

/**
 * What goes wrong: `kw` as a note's title says it, `para` as a question would (a verb phrase); `causes`,
 * `fixes` and `named` (a note named after its fix) go in pairs.
 */
export const SYMPTOMS = [
  {
    key: 'timeout',
    named: ['add-created-at-index', 'batch-upstream-calls', 'raise-db-pool-size'],
    kw: 'timeout',
    title: 'times out',
    para: ['hang until it gets killed', 'never finish', 'just sit there spinning'],
    errors: ['Error: Timeout of 5000ms exceeded', '504 Gateway Timeout', 'context deadline exceeded'],
    causes: [
      'the query on `{table}` had no index on `created_at`, so it scanned {n}k rows',
      'we awaited the upstream call inside a loop, one request per row',
      'the connection pool was capped at 5 while the worker ran 20 jobs',
    ],
    fixes: [
      'added `CREATE INDEX CONCURRENTLY {table}_created_at_idx` and the call dropped to 40 ms',
      'batched the calls with `Promise.all` in chunks of 50 (`{Id}Batcher`)',
      'raised `POOL_MAX` to 25 and set `statement_timeout` to 30s',
    ],
  },
  {
    key: 'flaky',
    named: ['sort-fixture-rows', 'use-fake-timers', 'random-port-per-worker'],
    kw: 'flaky test',
    title: 'flaky test',
    para: ['go red on CI and then green on a rerun', 'pass locally but randomly break in the pipeline'],
    errors: ['expected 3 to equal 2', 'ECONNREFUSED 127.0.0.1:5432', 'Element is not attached to the DOM'],
    causes: [
      'the spec depended on the order of `{table}` rows without an ORDER BY',
      'it used real timers and the debounce fired after the assertion',
      'two specs shared the same port and ran in parallel',
    ],
    fixes: [
      'sort by id in the fixture and assert on a set',
      'switched to `vi.useFakeTimers()` and advance by hand',
      'each worker takes a port from `getPort()` in `{test}`',
    ],
  },
  {
    key: '500',
    named: ['soft-delete-filter-and-404', 'default-currency-for-old-clients', 'require-auth-on-route'],
    kw: '500 error',
    title: 'returns 500',
    para: ['blow up with an internal server error', 'give the generic oops page'],
    errors: [
      "TypeError: Cannot read properties of undefined (reading 'id')",
      'panic: runtime error: invalid memory address or nil pointer dereference',
      'NullPointerException at {Id}Controller.kt:88',
    ],
    causes: [
      'a deleted customer still had rows in `{table}` and the join returned null',
      'the payload from the mobile client omits `currency` for old builds',
      'the handler assumed `req.user` is set, but the route is public',
    ],
    fixes: [
      'guard with an early 404 and a soft-delete filter in `{Id}Repository`',
      'default `currency` to the account currency in the validator',
      'moved the route behind `requireAuth` and added a test in `{test}`',
    ],
  },
  {
    key: 'memory',
    named: ['remove-listener-on-cleanup', 'bound-the-lru', 'stream-rows-not-buffer'],
    kw: 'memory leak',
    title: 'memory leak',
    para: ['keep eating RAM until the pod restarts', 'get OOM-killed after a few hours'],
    errors: [
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      'OOMKilled (exit code 137)',
    ],
    causes: [
      'an event listener was added on every render and never removed',
      'the LRU in `{Id}Cache` had no max size',
      'we kept every parsed row of the upload in an array',
    ],
    fixes: [
      'remove the listener in the effect cleanup',
      'bounded the cache to 10k entries with a 15 min TTL',
      'stream rows through a transform instead of buffering',
    ],
  },
  {
    key: 'slow',
    named: ['preload-line-items', 'virtualize-the-list', 'resize-images-at-upload'],
    kw: 'slow',
    title: 'is slow',
    para: ['take ages to load', 'feel sluggish for big accounts'],
    errors: ['p95 latency 4.2s in Grafana', 'Long task took 1800ms'],
    causes: [
      'an N+1: one query per line item in `{Id}Service`',
      'we re-rendered the whole list on each keystroke',
      'the image was resized on every request instead of once',
    ],
    fixes: [
      'preload with a single `WHERE id = ANY($1)` query',
      'memoized rows and virtualized the list with `react-window`',
      'resize at upload and keep the thumbnails in the bucket',
    ],
  },
  {
    key: 'duplicate',
    named: ['idempotency-key-header', 'skip-locked-claims'],
    kw: 'duplicates',
    title: 'creates duplicates',
    para: ['show the same entry twice', 'end up with double records'],
    errors: ['duplicate key value violates unique constraint "{table}_pkey"', 'two rows with the same external id'],
    causes: [
      'the client retried on a network error and the handler is not idempotent',
      'two workers picked the same job because the lock was taken after the read',
    ],
    fixes: [
      'require an `Idempotency-Key` header and store it for 24h',
      'claim with `SELECT ... FOR UPDATE SKIP LOCKED`',
    ],
  },
  {
    key: 'timezone',
    named: ['store-timestamptz', 'pass-user-timezone'],
    kw: 'timezone bug',
    title: 'wrong timezone',
    para: ['show dates off by a few hours', 'display yesterday for people in Asia'],
    errors: ['expected 2026-03-01 got 2026-02-28', 'RangeError: Invalid time value'],
    causes: [
      'dates were stored as local time strings instead of UTC',
      'the server formatted with its own zone, not the user setting',
    ],
    fixes: [
      'store `timestamptz` and convert only in the view with the user zone',
      'pass `timeZone` from the profile into `Intl.DateTimeFormat`',
    ],
  },
  {
    key: 'crash',
    named: ['validate-env-at-boot', 'rebuild-native-modules'],
    kw: 'crash on startup',
    title: 'crashes on startup',
    para: ['die right after launch', 'refuse to boot'],
    errors: ['Segmentation fault (core dumped)', 'Error: Cannot find module', 'thread main panicked at'],
    causes: [
      'a missing env var made the config loader throw before logging was up',
      'the native module was built for another Node ABI',
    ],
    fixes: [
      'validate the env with a schema at boot and print which key is missing',
      'rebuild with `{pm} rebuild` after switching Node versions',
    ],
  },
  {
    key: 'stale',
    named: ['no-store-on-json-route', 'filter-in-query-key'],
    kw: 'stale data',
    title: 'shows stale data',
    para: ['keep showing old values after an edit', 'not refresh until a hard reload'],
    errors: ['ETag matched, 304 returned', 'cache hit for key {table}:v1'],
    causes: [
      'the CDN cached the JSON for an hour',
      'the query key did not include the filter, so the cached page was reused',
    ],
    fixes: [
      'send `Cache-Control: private, no-store` on that route',
      'added the filter to the query key and invalidate on save',
    ],
  },
  {
    key: 'encoding',
    named: ['decode-as-utf8', 'csv-bom-for-excel'],
    kw: 'encoding',
    title: 'garbles accented characters',
    para: ['turn é into weird symbols', 'mangle non-English names'],
    errors: ["UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9", 'Ã© instead of é'],
    causes: ['the file was read as latin-1', 'Excel expects a BOM for UTF-8'],
    fixes: ['decode as utf-8 explicitly', 'prepend `\\uFEFF` so Excel opens it right'],
  },
  {
    key: 'permission',
    named: ['map-legacy-roles', 'iam-policy-new-prefix'],
    kw: 'permission denied',
    title: 'permission denied',
    para: ['say forbidden to admins', 'refuse access even with the right role'],
    errors: ['EACCES: permission denied', '403 Forbidden', 'AccessDenied: not authorized to perform s3:PutObject'],
    causes: ['the role check compared against the old role names', 'the IAM policy missed the new bucket prefix'],
    fixes: ['map legacy roles in `{Id}Policy`', 'added the prefix to the policy in terraform and applied'],
  },
  {
    key: 'race',
    named: ['optimistic-locking-version-column', 'lock-in-id-order'],
    kw: 'race condition',
    title: 'race condition',
    para: ['lose one of two simultaneous edits', 'let concurrent writes clobber each other'],
    errors: ['lost update detected', 'deadlock detected'],
    causes: ['read-modify-write without a version check', 'two transactions locked rows in opposite order'],
    fixes: ['optimistic locking with a `version` column', 'always lock in id order'],
  },
];

/** Tool decisions: a topic, what we pick and what we used before (or turned down), and why. */
export const CHOICES = [
  {
    topic: 'date handling',
    para: ['working with timestamps', 'formatting days and times'],
    pick: 'date-fns',
    old: 'moment',
    why: 'moment is in maintenance mode and adds 70 kB',
  },
  {
    topic: 'package manager',
    para: ['installing dependencies', 'which installer'],
    pick: 'pnpm',
    old: 'npm',
    why: 'the workspace protocol and a strict node_modules',
  },
  {
    topic: 'test runner',
    para: ['running specs', 'framework for unit checks'],
    pick: 'vitest',
    old: 'jest',
    why: 'native ESM and it is four times faster here',
  },
  {
    topic: 'http client',
    para: ['calling external services', 'fetching from other apis'],
    pick: 'undici',
    old: 'axios',
    why: 'fewer dependencies and keep-alive by default',
  },
  {
    topic: 'request validation',
    para: ['checking incoming payloads', 'schema for bodies'],
    pick: 'zod',
    old: 'joi',
    why: 'types come out of the schema',
  },
  {
    topic: 'logging library',
    para: ['structured output', 'where log lines come from'],
    pick: 'pino',
    old: 'winston',
    why: 'JSON lines and much lower overhead',
  },
  {
    topic: 'orm',
    para: ['talking to the database from code', 'query builder'],
    pick: 'drizzle',
    old: 'prisma',
    why: 'no engine binary and plain SQL when needed',
  },
  {
    topic: 'state management',
    para: ['global store in the frontend', 'sharing data between screens'],
    pick: 'zustand',
    old: 'redux',
    why: 'less boilerplate for our size',
  },
  {
    topic: 'css approach',
    para: ['styling components', 'stylesheets'],
    pick: 'tailwind',
    old: 'styled-components',
    why: 'no runtime cost and consistent spacing',
  },
  {
    topic: 'linting',
    para: ['static checks on style', 'catching mistakes before review'],
    pick: 'eslint flat config',
    old: 'tslint',
    why: 'tslint is dead',
  },
  {
    topic: 'formatter',
    para: ['code layout', 'automatic indentation fixing'],
    pick: 'prettier',
    old: 'eslint stylistic rules',
    why: 'one tool, no debates',
  },
  {
    topic: 'python dependency manager',
    para: ['installing python libs', 'virtualenv tool'],
    pick: 'uv',
    old: 'poetry',
    why: 'lockfile resolves in seconds',
  },
  {
    topic: 'message broker',
    para: ['queueing events between services', 'pub sub system'],
    pick: 'rabbitmq',
    old: 'redis streams',
    why: 'dead-letter queues and acks out of the box',
  },
  {
    topic: 'secrets storage',
    para: ['where credentials live', 'keeping api keys safe'],
    pick: 'doppler',
    old: '.env files in 1password',
    why: 'per-environment injection in CI',
  },
  {
    topic: 'e2e testing',
    para: ['browser automation tests', 'end to end checks in a real browser'],
    pick: 'playwright',
    old: 'cypress',
    why: 'parallel by default and real multi-tab',
  },
  {
    topic: 'feature flag service',
    para: ['toggling features remotely', 'rollout switches provider'],
    pick: 'unleash',
    old: 'launchdarkly',
    why: 'self-hosted and cheaper',
  },
  {
    topic: 'error tracking',
    para: ['crash reporting', 'where exceptions are collected'],
    pick: 'sentry',
    old: 'bugsnag',
    why: 'release health and source maps',
  },
  {
    topic: 'container base image',
    para: ['docker image we build from', 'os for our images'],
    pick: 'distroless node',
    old: 'node:alpine',
    why: 'musl broke the native sharp build',
  },
  {
    topic: 'branch naming',
    para: ['what to call git branches', 'naming scheme for work branches'],
    pick: '`feat/<ticket>-<short>`',
    old: '`<name>/<topic>`',
    why: 'the release bot links tickets from the prefix',
  },
  {
    topic: 'commit messages',
    para: ['how to word commits', 'writing the git log'],
    pick: 'conventional commits',
    old: 'free-form messages',
    why: 'changesets reads the type',
  },
  {
    topic: 'merge strategy',
    para: ['how pull requests land', 'combining PRs into main'],
    pick: 'squash merge',
    old: 'merge commits',
    why: 'a linear history that bisects cleanly',
  },
  {
    topic: 'api style',
    para: ['shape of our endpoints', 'rest or graphql or something else'],
    pick: 'REST with OpenAPI',
    old: 'GraphQL',
    why: 'caching and simpler auth',
  },
  {
    topic: 'monorepo tool',
    para: ['workspace build orchestration', 'running tasks across packages'],
    pick: 'turborepo',
    old: 'lerna',
    why: 'remote caching',
  },
  {
    topic: 'charting library',
    para: ['drawing graphs', 'plots in the UI'],
    pick: 'echarts',
    old: 'chart.js',
    why: 'big datasets render without jank',
  },
  {
    topic: 'ml experiment tracking',
    para: ['recording training runs', 'comparing model trainings'],
    pick: 'mlflow',
    old: 'wandb',
    why: 'runs on our own infra',
  },
  {
    topic: 'migrations tool',
    para: ['changing the schema', 'evolving tables'],
    pick: 'dbmate',
    old: 'knex migrations',
    why: 'plain SQL files any service can run',
  },
  {
    topic: 'mocking http in tests',
    para: ['faking network calls in specs', 'stubbing remote responses'],
    pick: 'msw',
    old: 'nock',
    why: 'works in the browser too',
  },
  {
    topic: 'i18n library',
    para: ['translating the interface', 'localization framework'],
    pick: 'formatjs',
    old: 'i18next',
    why: 'ICU plurals',
  },
];

/** Chores with steps (workflow notes): `para` as someone asks how to do it. */
export const CHORES = [
  {
    task: 'deploy to staging',
    para: ['push a build to the preprod environment', 'ship to the test server'],
    steps: [
      'merge to `main`',
      'wait for the `{ci}` pipeline',
      'run `make deploy ENV=staging`',
      'check the health check at /healthz',
    ],
  },
  {
    task: 'rotate the api keys',
    para: ['renew credentials for third parties', 'replace leaked secrets'],
    steps: [
      'create the new key in the provider console',
      'update it in doppler for each env',
      'redeploy',
      'revoke the old key after 24h',
    ],
  },
  {
    task: 'cut a release',
    para: ['publish a new version', 'tag and ship a version'],
    steps: ['run `{pm} changeset version`', 'open the release PR', 'after merge the tag triggers publish'],
  },
  {
    task: 'restore the database from a snapshot',
    para: ['recover data after a bad migration', 'roll the db back to last night'],
    steps: [
      'find the snapshot id in the console',
      'restore to a new instance',
      'switch `DATABASE_URL`',
      'run smoke tests',
    ],
  },
  {
    task: 'seed the local database',
    para: ['get sample rows on my machine', 'fill dev db with fixtures'],
    steps: ['`docker compose up -d {db}`', 'run `{pm} run db:seed`', 'log in as admin@example.com / dev'],
  },
  {
    task: 'regenerate the api client',
    para: ['refresh the generated sdk', 'rebuild typed bindings from the spec'],
    steps: ['edit `openapi.yaml`', 'run `{pm} run gen:client`', 'commit the generated folder'],
  },
  {
    task: 'update snapshots',
    para: ['accept new golden files', 'refresh the stored expected output'],
    steps: ['run `{run} -u`', 'review the diff by hand', 'never update in CI'],
  },
  {
    task: 'bump the node version',
    para: ['upgrade the javascript runtime', 'move to a newer LTS'],
    steps: ['change `.nvmrc` and `engines`', 'update the CI matrix', 'rebuild native modules'],
  },
  {
    task: 'add a feature flag',
    para: ['put new behaviour behind a toggle', 'guard unfinished work with a switch'],
    steps: ['create it in unleash with the ticket id', 'read it through `flags.isEnabled()`', 'default off in prod'],
  },
  {
    task: 'run the e2e tests locally',
    para: ['execute browser tests on my laptop', 'try the end to end suite on my machine'],
    steps: ['start the app with `{pm} dev`', 'run `{pm} playwright test --headed`', 'traces go to `test-results/`'],
  },
  {
    task: 'profile memory usage',
    para: ['find what eats RAM', 'take a heap snapshot'],
    steps: ['start with `--inspect`', 'take two heap snapshots in chrome devtools', 'compare retained size'],
  },
  {
    task: 'backfill a new column',
    para: ['populate a field for existing rows', 'fill old records after adding a field'],
    steps: ['add the column nullable', 'backfill in batches of 1000 with a script', 'then add NOT NULL'],
  },
  {
    task: 'onboard a new developer',
    para: ['set up a newcomer', 'first day setup for a hire'],
    steps: ['grant github and doppler access', 'pair on the README setup', 'assign a starter ticket'],
  },
  {
    task: 'debug a failing pipeline',
    para: ['figure out why the build is red', 'investigate broken CI'],
    steps: ['open the `{ci}` logs', 'rerun with debug logging', 'reproduce with `act` or the same docker image'],
  },
  {
    task: 'renew the tls certificate',
    para: ['replace the expiring https cert', 'ssl expiry'],
    steps: ['cert-manager renews automatically', 'if stuck, delete the `Certificate` and let it reissue'],
  },
  {
    task: 'add a new service to the mesh',
    para: ['register a microservice with istio', 'expose a new backend internally'],
    steps: ['add the `VirtualService`', 'set mTLS to STRICT', 'add the route to the gateway'],
  },
  {
    task: 'reproduce a production bug',
    para: ['recreate a live issue on my machine', 'get prod behaviour locally'],
    steps: ['pull the request id from Sentry', 'replay with the anonymised dump', 'enable `DEBUG=*`'],
  },
  {
    task: 'run database migrations',
    para: ['apply schema changes', 'evolve tables on deploy'],
    steps: ['write the SQL in `migrations/`', 'run `{pm} run migrate`', 'migrations run before the app starts in prod'],
  },
  {
    task: 'retrain the model',
    para: ['refresh the learned weights', 'fit a new version of the predictor'],
    steps: ['export features for the last 90 days', 'run `make train`', 'compare offline metrics before promoting'],
  },
  {
    task: 'clear the cdn cache',
    para: ['purge cached assets at the edge', 'invalidate cloudfront'],
    steps: ['`aws cloudfront create-invalidation --paths "/*"`', 'takes about 5 minutes'],
  },
  {
    task: 'write a postmortem',
    para: ['document an outage', 'incident review writeup'],
    steps: ['use the template in the wiki', 'timeline in UTC', 'action items with owners'],
  },
  {
    task: 'review a pull request',
    para: ['look at someone elses changes', 'give code feedback'],
    steps: ['pull the branch and run the tests', 'comment with suggestions', 'approve only when CI is green'],
  },
];

/** Reference facts: where something lives or what a value is. */
export const FACTS = [
  {
    thing: 'staging url',
    para: ['address of the preprod environment', 'link to the test server'],
    value: '`https://staging.{name}.internal`',
  },
  {
    thing: 'grafana dashboard',
    para: ['graphs for latency', 'metrics board'],
    value: '`grafana/d/{Id}` (folder Team/{name})',
  },
  {
    thing: 'on-call rotation',
    para: ['who gets paged', 'pager schedule'],
    value: 'PagerDuty schedule "{name} primary", weekly handover Monday 10:00',
  },
  {
    thing: 'dev server port',
    para: ['which localhost number', 'where the app listens locally'],
    value: '`localhost:{n}`',
  },
  {
    thing: 'feature flag config',
    para: ['file with the toggles', 'where switches are declared'],
    value: '`config/flags.yaml`',
  },
  {
    thing: 's3 bucket for uploads',
    para: ['where user files are stored', 'object storage location'],
    value: '`s3://{name}-uploads-prod`, versioned, 30 day lifecycle',
  },
  {
    thing: 'environment variables',
    para: ['settings the app reads at boot', 'config keys from the shell'],
    value: '`DATABASE_URL`, `REDIS_URL`, `SENTRY_DSN`, `LOG_LEVEL`',
  },
  {
    thing: 'test account',
    para: ['credentials for trying things', 'login I can use for qa'],
    value: '`qa+{name}@example.com`, password in 1password vault QA',
  },
  {
    thing: 'sentry project',
    para: ['where crashes are reported', 'error tracker project name'],
    value: '`{name}-prod` in org acme',
  },
  {
    thing: 'architecture diagram',
    para: ['picture of the system', 'overview drawing of components'],
    value: '`docs/architecture.excalidraw`',
  },
  {
    thing: 'slack channel',
    para: ['where the team chats', 'chat room for this repo'],
    value: '`#team-{name}`, alerts in `#alerts-{name}`',
  },
  {
    thing: 'database replica',
    para: ['read-only copy for analytics', 'follower db for reports'],
    value: '`{db}-replica-1`, lag usually under 2s',
  },
  {
    thing: 'rate limits',
    para: ['how many calls per minute are allowed', 'throttling thresholds'],
    value: '600 requests/min per token, 60 for anonymous',
  },
  {
    thing: 'service owners',
    para: ['who maintains this', 'which people are responsible'],
    value: 'Priya (backend), Tomás (frontend), Wen (infra)',
  },
  {
    thing: 'log retention',
    para: ['how long logs are kept', 'when log lines expire'],
    value: '14 days in Loki, 1 year in the cold bucket',
  },
  {
    thing: 'coverage threshold',
    para: ['minimum percentage of lines tested', 'required test percentage'],
    value: '80 % lines, enforced in CI',
  },
  {
    thing: 'supported browsers',
    para: ['which browser versions we care about', 'compatibility targets'],
    value: 'last 2 versions, Safari ≥ 15, no IE',
  },
  {
    thing: 'api base path',
    para: ['url prefix for endpoints', 'root route for the backend'],
    value: '`/api/v2`, v1 is frozen',
  },
];

/** A user's preferences (preference notes, mostly global). */
export const PREFERENCES = [
  {
    about: 'small pull requests',
    para: ['how big changes should be', 'size of reviews'],
    text: 'Keep PRs under ~300 changed lines; split refactors from behaviour changes.',
  },
  {
    about: 'no emojis in commits',
    para: ['style of the git log', 'pictograms in history'],
    text: 'No emojis in commit messages or PR titles.',
  },
  {
    about: 'explain before editing',
    para: ['talk first then change files', 'describe a plan ahead of touching code'],
    text: 'Describe the plan in two or three bullets before changing files.',
  },
  {
    about: 'tabs vs spaces',
    para: ['indentation width', 'how far to indent'],
    text: 'Two spaces, never tabs, except in Makefiles and Go.',
  },
  {
    about: 'british spelling in docs',
    para: ['colour or color', 'which English variant'],
    text: 'Docs use British spelling (colour, behaviour); code identifiers stay American.',
  },
  {
    about: 'run tests before commit',
    para: ['check suite ahead of saving work', 'verify before committing'],
    text: 'Always run the affected tests before committing, even for one-liners.',
  },
  {
    about: 'prefer early returns',
    para: ['nesting style', 'guard clauses'],
    text: 'Prefer early returns to nested ifs; max two levels of nesting.',
  },
  {
    about: 'no default exports',
    para: ['how modules expose things', 'named exports only'],
    text: 'Named exports only; default exports make renames painful.',
  },
  {
    about: 'comment style',
    para: ['how to write code remarks', 'what annotations should say'],
    text: 'Comments explain why, not what; delete commented-out code.',
  },
  {
    about: 'terse answers',
    para: ['how long replies should be', 'verbosity of the assistant'],
    text: 'Short answers; no summary paragraph at the end.',
  },
  {
    about: 'typescript strict mode',
    para: ['compiler strictness', 'type checking level'],
    text: 'Strict on, `noUncheckedIndexedAccess` on, no `any` without a comment.',
  },
  {
    about: 'ask before adding dependencies',
    para: ['new libraries need approval', 'installing third-party packages'],
    text: 'Ask before adding a runtime dependency; dev dependencies are fine.',
  },
];

/** Things that go in passing in standups, retros and sprint notes (what makes notes share words). */
export const STATUS_WORDS = [
  'still investigating',
  'fixed, waiting for review',
  'blocked on infra',
  'moved to next sprint',
  'needs a repro',
  'done',
  'owner: Priya',
  'owner: Wen',
  'paired with Tomás',
  'ticket {Id}-{n}',
];

/** Long-question wrappers: filler around the core of a question, as people type to an agent. */
export const LONG_WRAPPERS = [
  'hey, quick question before I start on this: {core}?',
  "I'm back on this after the long weekend and honestly can't remember {core}, can you check?",
  'sorry if we went over this already, but {core}? I think we wrote something down',
  'before I touch anything here, could you look up {core}? thanks',
  'so I was talking to Priya earlier and neither of us could remember {core}, do we have notes on that?',
  'ok, new day: {core}? I have a feeling we solved this once already',
  'can you remind me {core}? I want to get it right this time',
  "I'm pairing with the new hire and they asked {core}, what do we know about that?",
];

/**
 * Chores about one feature (workflow notes): `{P}` in `para` is the feature's paraphrase; `newSteps` is
 * the procedure after it changed (revised notes).
 */
export const FEATURE_CHORES = [
  {
    task: 'backfill {F} data',
    para: ['populate old rows of the {P}', 'fill in history for the {P}'],
    steps: [
      'write the script in `scripts/backfill-{table}.ts`',
      'dry run on staging with `--limit 100`',
      'run in prod in batches of 1000 overnight',
    ],
    newSteps: [
      'use the generic `backfill` job: `make backfill TABLE={table}`',
      'it checkpoints, so just rerun on failure',
    ],
  },
  {
    task: 'reprocess failed {F} jobs',
    para: ['retry the broken background work of the {P}', 'replay what errored for the {P}'],
    steps: [
      "list them with `SELECT id FROM jobs WHERE state = 'failed'`",
      'requeue with `{pm} run jobs:retry --queue {table}`',
    ],
    newSteps: ['open the admin queue page and press "retry all"', 'the CLI command was removed in v3'],
  },
  {
    task: 'debug {F} locally',
    para: ['reproduce the {P} on my machine', 'step through the {P} on my laptop'],
    steps: ['set `DEBUG={Id}*`', 'start with `{pm} dev`', 'breakpoint in `{file}`'],
    newSteps: ['use the devcontainer, it has the seed data', 'attach the debugger from the launch config "{Id}"'],
  },
  {
    task: 'enable {F} for a customer',
    para: ['turn on the {P} for one client', 'give an account access to the {P}'],
    steps: ['add the org id to the `{Id}` flag in unleash', 'tell support in `#support`'],
    newSteps: ['customers toggle it themselves in settings now', 'only enterprise plans need a ticket'],
  },
  {
    task: 'roll back the {F} release',
    para: ['undo a bad deploy of the {P}', 'revert the {P} to yesterday'],
    steps: [
      'find the previous image tag in `{ci}`',
      'redeploy it with `make deploy TAG=<tag>`',
      'note it in the incident channel',
    ],
    newSteps: ['press "rollback" in Argo CD', 'the previous revision is kept for 7 days'],
  },
  {
    task: 'add a field to {F}',
    para: ['extend the {P} with a new attribute', 'store one more property in the {P}'],
    steps: ['migration in `migrations/`', 'update `{Id}Schema`', 'regenerate the client'],
    newSteps: ['edit `schema.prisma`, migrations are generated', 'the client regenerates on build'],
  },
  {
    task: 'load test {F}',
    para: ['stress the {P} with lots of traffic', 'check how the {P} holds under heavy use'],
    steps: ['k6 script in `load/{table}.js`', 'run against staging only', 'watch p95 in grafana'],
    newSteps: ['use the shared `loadtest` workflow in CI with `target={Id}`', 'results are posted to the PR'],
  },
  {
    task: 'clear the {F} cache',
    para: ['flush memoized results of the {P}', 'wipe stored lookups for the {P}'],
    steps: ['`redis-cli --scan --pattern "{table}:*" | xargs redis-cli del`'],
    newSteps: ['bump `CACHE_VERSION` in the config, old keys expire on their own', 'never delete keys by hand in prod'],
  },
];

/** Facts about one feature (reference notes); `values` are the successive answers (revised notes). */
export const FEATURE_FACTS = [
  {
    thing: '{F} owner',
    para: ['who maintains the {P}', 'which person is responsible for the {P}'],
    values: ['Priya Raman (backend guild)', 'Wen Li since the reorg', 'the payments squad, contact Jonas'],
  },
  {
    thing: '{F} config',
    para: ['where is the {P} configured', 'where do the settings of the {P} live'],
    values: [
      '`config/{table}.yaml`, reloaded on SIGHUP',
      'env vars `{Id}_*` only, the yaml file is gone',
      'the admin panel under Settings → Advanced',
    ],
  },
  {
    thing: '{F} dashboard',
    para: ['where can I see graphs for the {P}', 'is there a metrics board for the {P}'],
    values: ['grafana `d/{table}-overview`', 'Datadog dashboard "{Id} health"', 'the new Honeycomb board `{table}`'],
  },
  {
    thing: '{F} sla',
    para: ['what availability do we promise for the {P}', 'what uptime target does the {P} have'],
    values: [
      '99.9 % monthly, p95 under 300 ms',
      '99.95 % since the enterprise deal',
      '99.5 %, best effort on weekends',
    ],
  },
  {
    thing: '{F} limits',
    para: ['how large an upload does the {P} accept', 'what is the maximum size the {P} allows'],
    values: [
      '10 MB per request, 100 items per batch',
      '25 MB and 500 items after the upgrade',
      'no hard limit, throttled at 50 req/s',
    ],
  },
];
