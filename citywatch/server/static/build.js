// citywatch: the builder of a set-up choice's documents (issue 29), a deck say, at
// /build/<game>/<keyword>. GET /api/builder/<game>/<keyword> gives the choice and its builder
// (SetupChoice.builder: the document's skeleton and lists, each list's entries with their
// fields, the fields to filter by and to draw the curve by); the page counts copies of each
// entry, sends the document to POST /api/check/<game>/<keyword> after each change and shows
// every rule it breaks, by name. A document is saved in localStorage under
// "citywatch.built.<game>.<keyword>" ({name: document}; the start page offers them) and
// downloaded as the JSON file the choice reads. No game's name or keyword is written here.
"use strict";

(() => {
  const { el } = CityWatch;
  const $ = (id) => document.getElementById(id);
  const [, , game, keyword] = location.pathname.split("/").map(decodeURIComponent);
  const STORE = `citywatch.built.${game}.${keyword}`;
  const CHECK_DELAY = 250; // ms after the last change before the document is checked
  let info = null; // the answer of /api/builder
  let lists = []; // the builder's lists
  const counts = {}; // counts[list key]: Map of entry id to copies
  const filters = {}; // filters[list key][field]: the value shown ("" for any)
  let tab = null; // the list key shown in the pool
  let timer = null;
  let asked = 0; // the number of the last check sent or scheduled (older answers are dropped)

  function fail(message) {
    $("error").replaceChildren(message
      ? el("div", { class: "banner banner-error", role: "alert", text: message }) : "");
  }

  /** Every document saved in this browser, {name: document}. */
  function saved() {
    try {
      const found = JSON.parse(localStorage.getItem(STORE) || "{}");
      return found && typeof found === "object" && !Array.isArray(found) ? found : {};
    } catch {
      return {};
    }
  }

  /** The document built so far: the skeleton, its name, and each list's entries chosen. */
  function documentBuilt() {
    const doc = { ...info.builder.skeleton, name: $("doc-name").value };
    for (const list of lists) {
      doc[list.key] = list.entries.filter((e) => counts[list.key].get(e.id))
        .map((e) => ({ id: e.id, name: e.name, count: counts[list.key].get(e.id) }));
    }
    return doc;
  }

  /** Fill the counts from a document (entries by id or name; others are skipped). */
  function fill(doc) {
    for (const list of lists) {
      counts[list.key] = new Map();
      for (const row of Array.isArray(doc[list.key]) ? doc[list.key] : []) {
        const entry = list.entries.find((e) => e.id === row.id || e.name === row.name);
        if (entry && Number.isInteger(row.count) && row.count > 0) {
          counts[list.key].set(entry.id, row.count);
        }
      }
    }
    $("doc-name").value = typeof doc.name === "string" ? doc.name : "";
  }

  function total(list) {
    let n = 0;
    for (const c of counts[list.key].values()) n += c;
    return n;
  }

  function change(list, entry, by) {
    const now = (counts[list.key].get(entry.id) || 0) + by;
    if (now < 0 || now > info.builder.largest) return;
    if (now === 0) counts[list.key].delete(entry.id);
    else counts[list.key].set(entry.id, now);
    drawAll();
  }

  function drawTabs() {
    $("tabs").replaceChildren(...lists.map((list) => {
      const button = el("button", { type: "button", role: "tab", class: "tab",
        "data-list": list.key, "aria-selected": String(list.key === tab),
        text: `${list.label} (${total(list)} / ${list.size})` });
      button.addEventListener("click", () => { tab = list.key; drawAll(); });
      return button;
    }));
  }

  function drawFilters(list) {
    const parts = [];
    for (const field of list.filters) {
      const values = [...new Set(list.entries.map((e) => String(e.fields[field])))];
      const id = `filter-${list.key}-${field.replace(/\W+/g, "-")}`;
      const select = el("select", { id, "data-filter": field });
      select.append(el("option", { value: "", text: "any" }));
      for (const value of values) {
        select.append(el("option", { value, text: value,
          selected: filters[list.key][field] === value }));
      }
      select.addEventListener("change", () => { filters[list.key][field] = select.value; drawPool(); });
      parts.push(el("label", { for: id, text: field }), select);
    }
    $("filters").replaceChildren(...parts);
  }

  function drawPool() {
    const list = lists.find((l) => l.key === tab);
    const shown = list.entries.filter((e) => list.filters.every((f) =>
      !filters[list.key][f] || String(e.fields[f]) === filters[list.key][f]));
    const head = el("tr", {}, el("th", { text: "Card" }),
      ...list.fields.map((f) => el("th", { text: f })), el("th", { text: "In the deck" }));
    const rows = shown.map((entry) => {
      const n = counts[list.key].get(entry.id) || 0;
      const minus = el("button", { type: "button", class: "count-button", text: "−",
        "aria-label": `One ${entry.name} fewer`, disabled: n === 0 });
      const plus = el("button", { type: "button", class: "count-button", text: "+",
        "aria-label": `One more ${entry.name}`, disabled: n >= info.builder.largest });
      minus.addEventListener("click", () => change(list, entry, -1));
      plus.addEventListener("click", () => change(list, entry, 1));
      return el("tr", { "data-entry": entry.id, class: n ? "chosen" : null },
        el("td", {}, el("div", { class: "entry-name", text: entry.name }),
          el("div", { class: "entry-text", text: entry.text })),
        ...list.fields.map((f) => el("td", { text: String(entry.fields[f]) })),
        el("td", { class: "count-cell" }, minus, el("span", { class: "count", text: String(n) }), plus));
    });
    $("pool").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  }

  function drawDeck() {
    const parts = [];
    for (const list of lists) {
      const n = total(list);
      parts.push(el("h3", { class: n === list.size ? "full" : null,
        text: `${list.label}: ${n} of ${list.size}` }));
      const items = list.entries.filter((e) => counts[list.key].get(e.id)).map((e) =>
        el("li", { "data-entry": e.id }, el("span", { class: "count", text: `${counts[list.key].get(e.id)}×` }),
          el("span", { text: e.name })));
      parts.push(items.length ? el("ul", { class: "deck-list" }, ...items)
        : el("p", { class: "note", text: "None yet." }));
    }
    $("deck").replaceChildren(...parts);
  }

  /** Each list's curve: copies counted by its curve's first field (rows) and second
   * (columns), if any. */
  function drawCurve() {
    const parts = [];
    for (const list of lists) {
      const [rowField, colField] = list.curve;
      const value = (e, f) => String(e.fields[f]);
      const rowValues = [...new Set(list.entries.map((e) => value(e, rowField)))];
      const colValues = colField
        ? [...new Set(list.entries.map((e) => value(e, colField)))].sort() : [];
      const cell = (r, c) => list.entries.filter((e) => value(e, rowField) === r
        && (c === null || value(e, colField) === c))
        .reduce((sum, e) => sum + (counts[list.key].get(e.id) || 0), 0);
      const head = el("tr", {}, el("th", { text: colField ? `${rowField} \\ ${colField}` : rowField }),
        ...colValues.map((c) => el("th", { text: c })), el("th", { text: "All" }));
      const rows = rowValues.map((r) => el("tr", {}, el("th", { text: r }),
        ...colValues.map((c) => {
          const n = cell(r, c);
          return el("td", { class: n ? null : "zero", text: String(n) });
        }),
        el("td", { class: "all" }, el("span", { class: "bar", "data-n": String(cell(r, null)) }),
          String(cell(r, null)))));
      parts.push(el("h3", { text: list.label }),
        el("table", { class: "curve", "data-list": list.key }, el("thead", {}, head), el("tbody", {}, ...rows)));
    }
    $("curve").replaceChildren(...parts);
    for (const bar of $("curve").querySelectorAll(".bar")) {
      bar.style.width = `${Math.min(Number(bar.dataset.n), 20) * 0.25}rem`;
    }
  }

  function drawAll() {
    drawTabs();
    drawFilters(lists.find((l) => l.key === tab));
    drawPool();
    drawDeck();
    drawCurve();
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    asked += 1; // a check still on its way judged the deck as it was: its answer is dropped
    $("rules").replaceChildren(el("p", { class: "note", text: "Checking…" }));
    $("rules").dataset.state = "checking";
    timer = setTimeout(check, CHECK_DELAY);
  }

  /** Show a problem, its rule (before the first ": ") in bold. */
  function problemItem(text) {
    const at = text.indexOf(": ");
    return at > 0
      ? el("li", { class: "problem" }, el("strong", { text: text.slice(0, at) }), `: ${text.slice(at + 2)}`)
      : el("li", { class: "problem", text });
  }

  async function check() {
    const number = ++asked;
    let answer;
    let ok;
    try {
      const response = await fetch(`/api/check/${encodeURIComponent(game)}/${encodeURIComponent(keyword)}`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(documentBuilt()),
      });
      ok = response.ok;
      answer = await response.json().catch(() => ({}));
      if (!ok && !answer.error) answer.error = `the server answered ${response.status}`;
    } catch (error) {
      ok = false;
      answer = { error: `cannot reach the server: ${error.message}` };
    }
    if (number !== asked) return;
    const rules = $("rules");
    const name = info.choice.name;
    if (!ok) {
      rules.dataset.state = "broken";
      rules.replaceChildren(el("p", { class: "verdict bad", text: `Not a ${name} yet:` }),
        el("ul", { class: "problems" }, problemItem(answer.error)));
      return;
    }
    if (answer.problems.length) {
      rules.dataset.state = "broken";
      const n = answer.problems.length;
      rules.replaceChildren(el("p", { class: "verdict bad",
        text: `This ${name} breaks ${n} rule${n === 1 ? "" : "s"}:` }),
      el("ul", { class: "problems" }, ...answer.problems.map(problemItem)));
      return;
    }
    rules.dataset.state = "good";
    rules.replaceChildren(el("p", { class: "verdict good", text: `A good ${name}: it keeps every rule.` }),
      ...answer.notes.map((note) => el("p", { class: "note", text: note })));
  }

  function drawStarts() {
    const select = $("start-from");
    const options = [el("option", { value: "empty", text: `An empty ${info.choice.name}` })];
    for (const doc of info.shipped) {
      options.push(el("option", { value: `shipped:${doc.id}`, text: doc.name }));
    }
    for (const name of Object.keys(saved()).sort()) {
      options.push(el("option", { value: `saved:${name}`, text: `${name} (saved)` }));
    }
    select.replaceChildren(...options);
  }

  function load() {
    const value = $("start-from").value;
    if (value === "empty") fill({ ...info.builder.skeleton });
    else if (value.startsWith("shipped:")) {
      fill(info.shipped.find((d) => `shipped:${d.id}` === value) || {});
      $("doc-name").value = `${$("doc-name").value} (my copy)`;
    } else if (value.startsWith("saved:")) fill(saved()[value.slice(6)] || {});
    drawAll();
  }

  function save() {
    const doc = documentBuilt();
    const name = doc.name.trim();
    if (!name) {
      $("saved-note").textContent = "Give it a name first.";
      return;
    }
    const all = saved();
    all[name] = doc;
    try {
      localStorage.setItem(STORE, JSON.stringify(all));
    } catch {
      $("saved-note").textContent = "This browser refused to save it.";
      return;
    }
    $("saved-note").textContent = `Saved as “${name}”; the start page offers it.`;
    drawStarts();
  }

  function download() {
    const doc = documentBuilt();
    const blob = new Blob([`${JSON.stringify(doc, null, 2)}\n`], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const file = `${(doc.name.trim() || info.choice.name).replace(/[^\w-]+/g, "-").toLowerCase()}.json`;
    const link = el("a", { href: url, download: file });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  async function start() {
    try {
      const response = await fetch(`/api/builder/${encodeURIComponent(game)}/${encodeURIComponent(keyword)}`);
      info = await response.json();
      if (!response.ok) throw new Error(info.error || `the server answered ${response.status}`);
    } catch (error) {
      fail(`Cannot load the builder: ${error.message}`);
      return;
    }
    lists = info.builder.lists;
    tab = lists[0].key;
    for (const list of lists) filters[list.key] = {};
    $("title").textContent = `${info.title}: build a ${info.choice.name}`;
    document.title = `Build a ${info.choice.name} · ${info.title} · citywatch`;
    $("deck-heading").textContent = `The ${info.choice.name} so far`;
    const wanted = new URLSearchParams(location.search).get("saved");
    fill(wanted && saved()[wanted] ? saved()[wanted] : { ...info.builder.skeleton });
    drawStarts();
    $("doc-name").addEventListener("input", schedule);
    $("load").addEventListener("click", load);
    $("save").addEventListener("click", save);
    $("download").addEventListener("click", download);
    drawAll();
    document.body.dataset.ready = "yes";
  }

  start();
})();
