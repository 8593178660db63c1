// Drives Debian's chromium with playwright-core through the console
// stand-in, for the Go harness in test/console (docs/console-plugin.md,
// "End to end"). One JSON argument says what to do:
//
//   {"url": "http://127.0.0.1:PORT",
//    "mode": "tab"|"accept"|"overview"|"hosted-cluster"|"hosted-clusters"|"history",
//    "user": "NAME" (optional: the identity the stand-in impersonates),
//    "identity": "..." (accept: the finding to accept; "" for the first),
//    "namespace", "name" (hosted-cluster: the HostedCluster whose tab to
//      open; hosted-clusters: the cluster whose link to follow),
//    "records": ["NAME", ...] (history: the updates to choose in turn),
//    "now": "RFC 3339" (optional: the page's clock, fixed there),
//    "screenshot": "PATH.png", "section": "DATA-TEST" (optional: only it)}
//
// It prints one JSON object: what the page shows (facts), how long the
// first data took to show (timings, milliseconds since navigation
// started), and every page error and console error or warning (errors).
// It launches /usr/bin/chromium (CHROMIUM overrides): no browser is
// downloaded.
const { chromium } = require('playwright-core');

const spec = JSON.parse(process.argv[2]);
const timeout = spec.timeout ?? 60000;

// factsOf reads, in the page, what the tab shows: the control plane's
// terms, each pool's status, phases and node rows, the health insights by
// level, the informers, the warnings, the pre-checks' findings.
const factsOf = () => {
  const text = (el) => {
    if (!el) return null;
    const c = el.cloneNode(true);
    c.querySelectorAll('.pf-v6-screen-reader, [data-not-text]').forEach((s) => s.remove());
    return c.textContent.replace(/\s+/g, ' ').trim();
  };
  const all = (sel, root = document) => [...root.querySelectorAll(sel)];
  const rows = (root) => all('tbody tr:not([data-test="row-detail"])', root).map((tr) => all('td', tr).map(text));
  const cp = document.querySelector('[data-test="control-plane"]');
  const terms = {};
  if (cp) {
    all('.pf-v6-c-description-list__group', cp).forEach((g) => {
      terms[text(g.querySelector('dt'))] = text(g.querySelector('dd'));
    });
  }
  // variantOf is a PatternFly progress bar's status variant, or none.
  const variantOf = (el) => {
    const m = el && [...el.classList].find((c) => ['pf-m-danger', 'pf-m-warning', 'pf-m-success'].includes(c));
    return el ? (m ? m.slice('pf-m-'.length) : 'none') : null;
  };
  // progressOf is what a progress bar says: its measure and variant.
  const progressOf = (root) => {
    const bar = root && root.querySelector('.pf-v6-c-progress');
    return bar ? { measure: text(bar.querySelector('.pf-v6-c-progress__measure')), variant: variantOf(bar) } : null;
  };
  // linesOf counts the lines an element's text takes on the page: the
  // boxes of its text, each below the one before it starting a line. A
  // label's own box (its padding, its border) is no line of text.
  const linesOf = (el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const boxes = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const r = document.createRange();
      r.selectNodeContents(n);
      boxes.push(...[...r.getClientRects()].filter((x) => x.width > 0));
    }
    boxes.sort((a, b) => a.top - b.top);
    let lines = 0;
    let bottom = -Infinity;
    for (const b of boxes) {
      if (b.top >= bottom - 1) {
        lines++;
        bottom = b.bottom;
      }
    }
    return lines;
  };
  // wrapped are the cells of the columns kept on one line that take more.
  const wrapped = all('td.pf-m-fit-content')
    .filter((td) => linesOf(td) > 1)
    .map((td) => `${text(td.closest('tr').querySelector('td'))}: ${td.getAttribute('data-label')} ${text(td)}`);
  return {
    wrapped,
    nav: all('[data-test="standin-nav-item"]').map((a) => ({ name: text(a), href: a.getAttribute('href'), section: a.getAttribute('data-section') })),
    controlPlaneProgress: progressOf(cp),
    operators: rows(document.querySelector('[data-test="updating-operators"]') ?? document.createElement('div')),
    warnings: all('[data-test="warning"]').map((w) => text(w.querySelector('.pf-v6-c-alert__title'))),
    notUpdating: all('[data-test="not-updating"] p').map(text),
    controlPlane: cp ? { terms, completed: text(cp.querySelector('[data-test="control-plane-completed"]')), text: text(cp) } : null,
    pools: all('[data-test^="pool-"]').map((p) => ({
      name: p.getAttribute('data-test').slice('pool-'.length),
      title: text(p.querySelector('.pf-v6-c-card__title')),
      completion: text(p.querySelector('.pf-v6-c-progress__description')),
      status: text(p.querySelector('.pf-v6-c-card__body > p')),
      phases: all('[data-test^="phase-"]', p).map(text),
      nodes: all('tbody tr[data-test^="node-"]', p).map((tr) => all('td', tr).map(text)),
      drainsHeld: rows(p.querySelector('[data-test="drains-held"]') ?? document.createElement('div')),
      severity: p.querySelector('[data-test="card-assessment"]')?.getAttribute('data-status') ?? null,
      progress: progressOf(p),
      nodeSeverity: Object.fromEntries(
        all('tbody tr[data-test^="node-"]', p).map((tr) => [text(tr.querySelector('td')), tr.querySelector('[data-status]')?.getAttribute('data-status') ?? null]),
      ),
    })),
    health: all('[data-test^="health-"]')
      .filter((g) => g.getAttribute('data-test') !== 'health-insight')
      .flatMap((g) =>
        all('[data-test="health-insight"]', g).map((h) => ({
          level: g.getAttribute('data-test').slice('health-'.length),
          message: text(h.querySelector('.pf-v6-c-alert__title')),
          text: text(h),
          terms: Object.fromEntries(
            all('.pf-v6-c-description-list__group', h).map((g) => [
              text(g.querySelector('dt')),
              g.querySelector('li') ? all('li', g).map(text).join('\n') : text(g.querySelector('dd')),
            ]),
          ),
        })),
      ),
    informers: all('[data-test^="informer-"]').map((tr) => all('td', tr).map(text)),
    plans: all('[data-test^="plan-"]').map((p) => ({
      name: p.getAttribute('data-test').slice('plan-'.length),
      findings: all('[data-test="finding"]', p).map((f) => ({
        identity: f.getAttribute('data-identity'),
        cells: all('td', f).map(text),
        acceptDisabled: f.querySelector('[data-test="accept"]')?.getAttribute('aria-disabled') === 'true',
      })),
      notAllowed: text(p.querySelector('[data-test="accept-not-allowed"]')),
      error: text(p.querySelector('[data-test="accept-error"]')),
    })),
  };
};

// hostedFactsOf reads, in the page, what the hosted clusters' tab and page
// show: whether the tab found the cluster; each section's kind, title,
// assessment label, bar, completed line, terms (each a list of its lines)
// and problem rows; the fleet's rows and their attention; and the
// navigation items.
const hostedFactsOf = () => {
  const text = (el) => {
    if (!el) return null;
    const c = el.cloneNode(true);
    c.querySelectorAll('.pf-v6-screen-reader, [data-not-text]').forEach((s) => s.remove());
    return c.textContent.replace(/\s+/g, ' ').trim();
  };
  const all = (sel, root = document) => [...root.querySelectorAll(sel)];
  return {
    nav: all('[data-test="standin-nav-item"]').map((a) => ({ name: text(a), href: a.getAttribute('href'), section: a.getAttribute('data-section') })),
    missing: text(document.querySelector('[data-test="hosted-cluster-missing"]')),
    sections: all('[data-test="hosted-section"]').map((s) => ({
      kind: s.getAttribute('data-kind'),
      title: s.getAttribute('data-title'),
      severity: s.querySelector('[data-test="card-assessment"]')?.getAttribute('data-status') ?? null,
      measure: text(s.querySelector('.pf-v6-c-progress__measure')),
      completed: text(s.querySelector('[data-test="section-completed"]')),
      terms: all('.pf-v6-c-description-list__group', s).map((g) => [text(g.querySelector('dt')), ...all('[data-test="term-line"]', g).map(text)]),
      problems: all('[data-test="problems"] tbody tr', s).map((tr) => all('td', tr).map(text)),
    })),
    rows: all('[data-test="hosted-cluster-row"]').map((tr) => ({ attention: tr.getAttribute('data-attention'), cells: all('td', tr).map(text) })),
  };
};

// historyFactsOf reads, in the page, the update history's rows, each with
// its record's name, and what the section says instead or above them.
const historyFactsOf = () => {
  const text = (el) => {
    if (!el) return null;
    const c = el.cloneNode(true);
    c.querySelectorAll('.pf-v6-screen-reader').forEach((s) => s.remove());
    return c.textContent.replace(/\s+/g, ' ').trim();
  };
  const all = (sel, root = document) => [...root.querySelectorAll(sel)];
  return {
    rows: all('[data-test="history-row"]').map((tr) => ({ record: tr.getAttribute('data-record'), cells: all('td', tr).map(text) })),
    unseen: all('[data-test="history-unseen"] .pf-v6-c-alert__title').map(text),
    none: text(document.querySelector('[data-test="no-update-records"]')),
    error: text(document.querySelector('[data-test="history-error"] .pf-v6-c-alert__title')),
  };
};

// postmortemFactsOf reads the chosen update's postmortem: its title and
// head, its tables (rows, what it says without any, the lines beneath),
// its timeline's events, and the picture: each bar, band and span with
// where it is drawn (x and width, in the drawing's units), the markers'
// lines, the estimates' marks and what it says of the operators and pools
// it has no start of.
const postmortemFactsOf = () => {
  const text = (el) => (el ? el.textContent.replace(/\s+/g, ' ').trim() : null);
  const all = (sel, root = document) => [...root.querySelectorAll(sel)];
  const pm = document.querySelector('[data-test="update-postmortem"]');
  const table = (testId) => {
    const t = pm.querySelector(`[data-test="${testId}"]`);
    return { rows: all('tbody tr', t).map((tr) => all('td', tr).map(text)), none: text(t.querySelector('[data-test="table-none"]')), notes: all('[data-test="table-note"]', t).map(text) };
  };
  const svg = pm.querySelector('[data-test="update-timeline"] svg');
  const box = (g, sel = 'rect') => {
    const r = g.querySelector(sel);
    return { x: Number(r.getAttribute('x')), width: Number(r.getAttribute('width')) };
  };
  const bars = (testId) => all(`[data-test="${testId}"]`, svg).map((g) => ({ name: g.getAttribute('data-name'), open: g.getAttribute('data-open') === 'true', ...box(g) }));
  const markers = (root) =>
    Object.fromEntries(
      all('[data-test="timeline-started"], [data-test="timeline-completed"], [data-test="timeline-abandoned"], [data-test="timeline-last-seen"], [data-test="timeline-update-completed"]', root).map((g) => [
        g.getAttribute('data-test').slice('timeline-'.length),
        Number(g.querySelector('line').getAttribute('x1')),
      ]),
    );
  return {
    record: pm.getAttribute('data-record'),
    title: text(pm.querySelector('.pf-v6-c-card__title')),
    terms: all('[data-test="postmortem-term"]', pm).map((g) => [text(g.querySelector('dt')), ...all('[data-test="term-line"]', g).map(text)]),
    tables: { slowest: table('slowest-operators'), stalls: table('stalls'), estimates: table('estimates') },
    // Each pool: its summary line, the rows of its phases and of its
    // slowest nodes (both tables' rows, in order), its per-node line and
    // notes; what the section says without any, and its own notes.
    pools: {
      pools: all('[data-test="postmortem-pool"]', pm).map((p) => ({
        summary: text(p.querySelector('[data-test="postmortem-pool-summary"]')),
        rows: all('tbody tr', p).map((tr) => all('td', tr).map(text)),
        perNode: text(p.querySelector('[data-test="postmortem-pool-per-node"]')),
        notes: all('[data-test="table-note"]', p).map(text),
      })),
      none: text(pm.querySelector('[data-test="postmortem-pools"] > [data-test="table-none"]')),
      notes: all('[data-test="postmortem-pools"] > [data-test="table-note"]', pm).map(text),
    },
    events: all('[data-test="timeline-events"] tbody tr', pm).map((tr) => all('td', tr).map(text)),
    picture: svg && {
      operators: bars('timeline-operator'),
      pools: bars('timeline-pool'),
      // A stall's band crosses every lane; its bar is in its own.
      stalls: all('[data-test="timeline-stall"]', svg).map((g) => ({ name: g.getAttribute('data-name'), level: g.getAttribute('data-level'), ...box(g) })),
      notObserved: all('[data-test="timeline-not-observed"]', svg).map((g) => ({ since: g.getAttribute('data-since') === 'true', label: text(g.querySelector('text')), ...box(g) })),
      markers: markers(svg),
      estimates: all('[data-test="timeline-estimate"]', svg).map((g) => ({
        percent: Number(g.getAttribute('data-percent')),
        beyond: g.getAttribute('data-beyond') === 'true',
        x: Number(g.querySelector('path').getAttribute('d').split(' ')[1]),
      })),
      unseen: text(pm.querySelector('[data-test="timeline-unseen"]')),
    },
  };
};

// sharedErrors says which modules the console provides the plugin did not
// take from it: a singleton of another version warns in the console by
// itself (webpack's "Unsatisfied version"), but a module that is not a
// singleton, PatternFly's, falls back to the plugin's own copy silently.
const sharedErrors = async (page) => {
  const shared = await page.evaluate(() => window.__standin_shared__ && window.__standin_shared__());
  if (!shared) return ['the stand-in did not say which shared modules were loaded'];
  const provided = new Set(shared.provided);
  return shared.uses
    .filter((u) => provided.has(u.module) && u.from !== shared.standin)
    .map((u) => `shared module ${u.module}: the plugin loaded its own ${u.version} (from ${u.from}), not the console's`);
};

// settle returns the facts (read by read, factsOf unless told) once they
// have not changed for a second: the watches have delivered what the API
// server holds.
const settle = async (page, read = factsOf) => {
  let last = '';
  let since = Date.now();
  const deadline = Date.now() + timeout;
  for (;;) {
    const facts = await page.evaluate(read);
    const now = JSON.stringify(facts);
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= 1000) {
      return facts;
    }
    if (Date.now() > deadline) {
      throw new Error(`the page did not settle in ${timeout} ms`);
    }
    await page.waitForTimeout(200);
  }
};

// errors are what the page reported: kept outside main so that a failure
// says them too.
const errors = [];

const main = async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
  const out = { facts: null, timings: {}, errors };
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(timeout);
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') {
        errors.push(`console ${m.type()}: ${m.text()}`);
      }
    });
    const query = spec.user ? `?user=${encodeURIComponent(spec.user)}` : '';
    // A fixed clock: the page's durations are then those the command
    // prints at --now, whenever the test runs. Timers run as ever.
    if (spec.now) await page.clock.setFixedTime(new Date(spec.now));
    if (spec.mode === 'hosted-cluster') {
      await page.goto(`${spec.url}/k8s/ns/${spec.namespace}/hypershift.openshift.io~v1beta1~HostedCluster/${spec.name}/update-insights${query}`);
      await page.locator('[data-test="hosted-section"], [data-test="hosted-cluster-missing"]').first().waitFor();
      out.facts = await settle(page, hostedFactsOf);
      if (spec.screenshot) await page.screenshot({ path: spec.screenshot, fullPage: true });
      errors.push(...(await sharedErrors(page)));
      return out;
    }
    if (spec.mode === 'hosted-clusters') {
      await page.goto(`${spec.url}/update-insights/hosted-clusters${query}`);
      await page.locator('[data-test="hosted-cluster-row"], [data-test="no-hosted-clusters"]').first().waitFor();
      out.facts = await settle(page, hostedFactsOf);
      if (spec.screenshot) await page.screenshot({ path: spec.screenshot, fullPage: true });
      errors.push(...(await sharedErrors(page)));
      // The cluster's name leads to its tab.
      await page.locator('[data-test="hosted-cluster-link"]', { hasText: `${spec.namespace}/${spec.name}` }).click();
      await page.locator('[data-test="hosted-section"]').first().waitFor();
      out.facts.followed = new URL(page.url()).pathname;
      return out;
    }
    if (spec.mode === 'history') {
      await page.goto(`${spec.url}/settings/cluster/update-insights${query}`);
      await page.locator('[data-test="history-row"], [data-test="no-update-records"], [data-test="history-error"]').first().waitFor();
      out.facts = { ...(await settle(page, historyFactsOf)), postmortems: [] };
      // Each update chosen in turn: its postmortem replaces the last.
      for (const record of spec.records ?? []) {
        await page.locator(`[data-test="history-row"][data-record="${record}"] [data-test="history-choose"]`).click();
        await page.locator(`[data-test="update-postmortem"][data-record="${record}"]`).waitFor();
        out.facts.postmortems.push(await settle(page, postmortemFactsOf));
        if (spec.screenshot) await page.locator('[data-test="update-history"]').screenshot({ path: spec.screenshot.replace(/\.png$/, `-${record}.png`) });
      }
      errors.push(...(await sharedErrors(page)));
      return out;
    }
    if (spec.mode === 'overview') {
      await page.goto(`${spec.url}/dashboards${query}`);
      const line = page.locator('[data-test="standin-health-Update"]');
      await line.locator('[data-test="standin-health-message"]').filter({ hasText: /\S/ }).waitFor();
      await page.waitForTimeout(1000);
      await line.locator('[data-test="standin-health-toggle"]').click();
      const popup = page.locator('[data-test="update-insights-popup"]');
      await popup.waitFor();
      out.facts = {
        state: await line.locator('[data-test="standin-health-state"]').textContent(),
        message: await line.locator('[data-test="standin-health-message"]').textContent(),
        popup: await popup.textContent(),
        link: await popup.locator('a').getAttribute('href'),
      };
      if (spec.screenshot) await page.screenshot({ path: spec.screenshot, fullPage: true });
      // The popup's link leads to the tab.
      await popup.locator('a').click();
      await page.locator('[data-test="update-insights"]').waitFor();
      out.facts.followed = new URL(page.url()).pathname;
      errors.push(...(await sharedErrors(page)));
      return out;
    }
    await page.goto(`${spec.url}/settings/cluster/update-insights${query}`);
    // First data: the control plane's card, or the line said while
    // nothing updates; then every row of the largest pool.
    await page.locator('[data-test="control-plane"], [data-test="not-updating"]').first().waitFor();
    out.timings.firstData = await page.evaluate(() => performance.now());
    await page.locator('[data-test="pre-checks"]').waitFor();
    const facts = await settle(page);
    out.timings.settled = await page.evaluate(() => performance.now());
    out.facts = facts;
    // Each node row that cuts its message expands to show it whole.
    for (const toggle of await page.locator('[data-test^="pool-"] [data-test="detail-toggle"]').all()) {
      await toggle.click();
    }
    out.facts.wholeMessages = await page.evaluate(() =>
      Object.fromEntries(
        [...document.querySelectorAll('[data-test^="pool-"] tr[data-test="row-detail"]')].map((tr) => [
          tr.previousElementSibling.querySelector('td').textContent.trim(),
          tr.querySelector('[data-test="whole-message"]').textContent,
        ]),
      ),
    );
    errors.push(...(await sharedErrors(page)));
    if (spec.mode === 'accept') {
      // The finding given, or the first one not accepted yet.
      const wanted = (f) => (spec.identity ? f.identity === spec.identity : f.cells[3] === 'No');
      const plan = facts.plans.find((p) => (!spec.plan || p.name === spec.plan) && p.findings.some(wanted));
      const finding = plan?.findings.find(wanted);
      if (!finding) {
        throw new Error(`no finding to accept: ${JSON.stringify(facts.plans)}`);
      }
      const row = page.locator(`[data-test="plan-${plan.name}"] [data-test="finding"][data-identity="${finding.identity}"]`);
      await row.locator('[data-test="accept"]').click();
      // Accepted once the operator has caught up: the status says so.
      await row.locator('td').nth(3).filter({ hasText: 'Yes' }).waitFor();
      out.accepted = { plan: plan.name, identity: finding.identity };
      out.facts = await settle(page);
    }
    if (spec.screenshot) {
      // The whole page, or only the section named (data-test).
      if (spec.section) await page.locator(`[data-test="${spec.section}"]`).screenshot({ path: spec.screenshot });
      else await page.screenshot({ path: spec.screenshot, fullPage: true });
    }
    return out;
  } finally {
    await browser.close();
  }
};

main()
  .then((out) => {
    process.stdout.write(JSON.stringify(out) + '\n');
  })
  .catch((e) => {
    process.stderr.write(`${e.stack || e}\n`);
    if (errors.length) process.stderr.write(`the page reported:\n${errors.join('\n')}\n`);
    process.exit(1);
  });
