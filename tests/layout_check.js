// The layout check, run in the page (tests/test_web_layout.py): sideways scroll, overlaps
// between the elements that carry information, text cut off, and the unobscured area of
// every tap target (sampled with document.elementFromPoint). Returns a list of problems.
(options) => {
  const problems = [];
  const STEP = 4, POINTS = 8;
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) problems.push(`sideways scroll: the page is ${doc.scrollWidth}px wide in ${doc.clientWidth}px`);
  const dialog = document.querySelector("dialog[open]");
  // While bidding: the bid box (on this seat's turn), the auction so far and the hand are all
  // on the screen at once, the page scrolled to its top.
  window.scrollTo(0, 0);
  if (document.body.dataset.phase === "auction" && !dialog) {
    for (const selector of ["#bid-box-wrap", "#centre-auction", "#hand"]) {
      const e = document.querySelector(selector);
      if (!e) {
        if (selector !== "#bid-box-wrap" || document.body.dataset.myTurn === "1") problems.push(`bidding: no ${selector}`);
        continue;
      }
      const r = e.getBoundingClientRect();
      if (e.closest("[hidden]") || r.height < 1) problems.push(`bidding: ${selector} is hidden`);
      else if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight + 0.5 || r.right > window.innerWidth + 0.5)
        problems.push(`bidding: ${selector} is out of sight (${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)} in ${window.innerWidth}x${window.innerHeight})`);
    }
  }
  // The strip of the contract, trump, tricks and score: at most two rows of text.
  const strip = document.getElementById("contract");
  const facts = strip ? [...strip.querySelectorAll(".fact")].map((f) => f.getBoundingClientRect()).filter((r) => r.height > 1) : [];
  if (facts.length) {
    const line = Math.min(...facts.map((r) => r.height));
    const rows = new Map();
    for (const r of facts) {
      const top = [...rows.keys()].find((t) => Math.abs(t - r.top) < line / 2);
      const lines = Math.round(r.height / line);
      if (top === undefined) rows.set(r.top, lines);
      else rows.set(top, Math.max(rows.get(top), lines));
    }
    const count = [...rows.values()].reduce((a, b) => a + b, 0);
    if (count > 2) problems.push(`the strip of the contract and scores takes ${count} rows: "${strip.innerText.replace(/\s+/g, " ")}"`);
  }
  const shown = (e) => {
    if (e.closest("[hidden]") || e.closest(".visually-hidden") || e.closest("[aria-hidden='true']")) return false;
    const style = getComputedStyle(e);
    if (style.visibility === "hidden" || style.display === "none") return false;
    const r = e.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && r.bottom + window.scrollY > 0;
  };
  const inScope = (e) => (dialog ? dialog.contains(e) : true);
  const name = (e) => {
    const label = e.getAttribute("aria-label") || e.textContent.trim().replace(/\s+/g, " ");
    return `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}.${[...e.classList].join(".")} "${label.slice(0, 40)}"`;
  };
  // Sample the element's box (inset by `inset`) after scrolling it into view: the share of
  // points where the element (or something inside it) is what a tap would hit, and the box
  // of those points.
  // (At most POINTS points a side: a step of STEP px, longer on a large element; the
  // elementFromPoint calls are most of the check's time.)
  const sample = (e, inset) => {
    let r = e.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth) {
      e.scrollIntoView({ block: "nearest", inline: "nearest" });
      r = e.getBoundingClientRect();
    }
    const stepX = Math.max(STEP, (r.width - 2 * inset) / (POINTS - 1)), stepY = Math.max(STEP, (r.height - 2 * inset) / (POINTS - 1));
    let hits = 0, total = 0, minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    const nx = Math.floor((r.width - 2 * inset) / stepX + 1e-6) + 1, ny = Math.floor((r.height - 2 * inset) / stepY + 1e-6) + 1;
    for (let j = 0; j < ny; j++) {
      const y = r.top + inset + j * stepY;
      for (let i = 0; i < nx; i++) {
        const x = r.left + inset + i * stepX;
        total++;
        if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) continue;
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === e || e.contains(hit))) {
          hits++;
          minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
        }
      }
    }
    return { share: total ? hits / total : 0, width: hits ? maxX - minX + stepX : 0, height: hits ? maxY - minY + stepY : 0, rect: r };
  };
  // Information: seat boxes, the dealer chip, the cards of the trick, the status strip.
  const infoSelector = ".seat, .seat .dealer, .trick .played, .contract-box .fact, .centre-auction, #prompt:not(:empty), .chosen-count";
  const info = [...document.querySelectorAll(infoSelector)].filter((e) => shown(e) && inScope(e));
  const boxes = info.map((e) => ({ e, r: e.getBoundingClientRect() }));
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.e.contains(b.e) || b.e.contains(a.e)) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 1 && h > 1) problems.push(`overlap ${Math.round(w)}x${Math.round(h)}: ${name(a.e)} and ${name(b.e)}`);
    }
  }
  for (const e of info) {
    const s = sample(e, 4);
    if (s.share < 0.9) problems.push(`covered: only ${Math.round(s.share * 100)}% of ${name(e)} shows`);
  }
  for (const e of document.querySelectorAll(".seat .name, .trick figcaption, .contract-box .fact, .centre-auction li")) {
    if (!shown(e) || !inScope(e)) continue;
    if (e.scrollWidth > e.clientWidth + 1) problems.push(`cut off: ${name(e)} needs ${e.scrollWidth}px in ${e.clientWidth}px`);
  }
  // Tap targets: every button, card button and button-like link, 44×44 px unobscured.
  const tapSelector = "button, a.btn, header.bar label, input:not([type=checkbox]), select";
  const taps = [...document.querySelectorAll(tapSelector)].filter((e) => shown(e) && inScope(e));
  for (const e of taps) {
    const s = sample(e, 1);
    if (s.rect.width < 44 - 0.5 || s.rect.height < 44 - 0.5) problems.push(`small: ${name(e)} is ${Math.round(s.rect.width)}x${Math.round(s.rect.height)}`);
    else if (s.width < 44 - 2 * STEP || s.height < 44 - 2 * STEP) problems.push(`obscured: ${name(e)} shows ${s.width}x${s.height}`);
  }
  window.scrollTo(0, 0);
  return { problems, info: info.length, taps: taps.length };
}
