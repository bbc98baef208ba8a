// citywatch: the coach's analysis of a finished table, /analysis/{key} (issue 30).
//
// GET /api/tables/{key}/analysis ({key}: the public replay id, or a link's token) answers once
// the game is over (409 while it runs: the chances would show hidden information) with the
// analysis: "names" (each seat's name as its view gives it), "colours", "cooperative" (one
// chance, the crew's), "curve" (every seat's chance before each decision, as its mover judged
// it, then the outcome), "turns", "turning" (the largest swings: step, seat, text, turn,
// before, after, swing, taken, hard_text, hard), "hints" ({step, seat} asked), "winners",
// "reason", "replay". The page draws the curve as an SVG line graph (one line per seat in its
// colour, or one for the crew), marks the turning points (numbered) and the hints asked (H),
// and lists the turning points with what the hard level would have done instead.
"use strict";

(() => {
  const { el, svg } = CityWatch;
  const $ = (id) => document.getElementById(id);
  const key = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const k0 = encodeURIComponent(key);
  const KNOWN = { Red: "#c0392b", Blue: "#2364c4", Green: "#2e8b3e", Yellow: "#d4a800",
    Black: "#222222", White: "#9a9a90" };
  const PALETTE = ["#c0392b", "#2364c4", "#2e8b3e", "#d4a800", "#7d3c98", "#555555"];
  const CREW = "#8a3b12";
  const W = 900; // the graph's drawing box, scaled to the panel's width
  const H = 340;
  const PAD = { left: 46, right: 16, top: 14, bottom: 40 };

  /** A chance in words, as the coach writes it: "54%", "<1%", ">99%". */
  function percent(chance) {
    if (chance > 0 && chance < 0.005) return "<1%";
    if (chance > 0.995 && chance < 1) return ">99%";
    return `${Math.round(100 * chance)}%`;
  }

  /** A swing in points with its sign: "+12 points", "−1 point". */
  function points(swing) {
    const n = Math.round(100 * Math.abs(swing));
    if (n === 0) return "±0 points";
    return `${swing < 0 ? "−" : "+"}${n} point${n === 1 ? "" : "s"}`;
  }

  function colourOf(a, seat) {
    if (a.cooperative) return CREW;
    const name = (a.colours && a.colours[seat]) || a.names[seat];
    return KNOWN[name] || PALETTE[seat % PALETTE.length];
  }

  function nameOf(a, seat) {
    return (a.colours && a.colours[seat]) || a.names[seat] || `Seat ${seat + 1}`;
  }

  /** Ticks for 0..n: about eight whole numbers at a round spacing. */
  function ticks(n) {
    const raw = Math.max(1, n / 8);
    const base = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 5, 10].map((f) => f * base).find((s) => s >= raw);
    const found = [];
    for (let x = 0; x <= n; x += step) found.push(x);
    return found;
  }

  function drawGraph(a) {
    const n = a.curve.length - 1; // decisions
    const x = (k) => PAD.left + (W - PAD.left - PAD.right) * (n ? k / n : 0);
    const y = (c) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - c);
    const parts = [];
    for (const c of [0, 0.25, 0.5, 0.75, 1]) {
      parts.push(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(c), y2: y(c),
        class: c === 0.5 ? "grid grid-half" : "grid" }));
      parts.push(svg("text", { x: PAD.left - 6, y: y(c) + 4, class: "axis-label",
        "text-anchor": "end" }, `${Math.round(100 * c)}%`));
    }
    for (const k of ticks(n)) {
      parts.push(svg("line", { x1: x(k), x2: x(k), y1: H - PAD.bottom, y2: H - PAD.bottom + 4,
        class: "tick" }));
      parts.push(svg("text", { x: x(k), y: H - PAD.bottom + 16, class: "axis-label",
        "text-anchor": "middle" }, String(k)));
    }
    parts.push(svg("text", { x: (PAD.left + W - PAD.right) / 2, y: H - 4,
      class: "axis-title", "text-anchor": "middle" }, "decisions"));
    // the hints asked: a mark under the axis at the decision they were for
    for (const h of a.hints) {
      const hx = x(Math.min(h.step, n));
      parts.push(svg("g", { class: "hint-mark", "data-step": h.step },
        svg("title", {}, `${nameOf(a, h.seat)} asked the coach for a hint (decision ${h.step + 1})`),
        svg("line", { x1: hx, x2: hx, y1: PAD.top, y2: H - PAD.bottom, class: "hint-line" }),
        svg("text", { x: hx, y: PAD.top + 10, "text-anchor": "middle", class: "hint-letter" }, "H")));
    }
    const lines = a.cooperative ? [0] : a.names.map((_, seat) => seat);
    for (const seat of lines) {
      const d = a.curve.map((row, k) => `${k ? "L" : "M"}${x(k).toFixed(1)},${y(row[seat]).toFixed(1)}`).join("");
      parts.push(svg("path", { d, class: "curve", "data-seat": seat, fill: "none",
        stroke: colourOf(a, seat), "stroke-width": 2.5, "stroke-linejoin": "round" },
      svg("title", {}, a.cooperative ? "the crew" : nameOf(a, seat))));
    }
    a.turning.forEach((t, i) => {
      const line = a.cooperative ? 0 : t.seat;
      const cx = x(t.step);
      const cy = y(a.curve[t.step][line]);
      parts.push(svg("g", { class: "turning-mark", "data-step": t.step },
        svg("title", {}, `${i + 1}. Decision ${t.step}, ${nameOf(a, t.seat)}: ${t.text}`),
        svg("circle", { cx, cy, r: 9, fill: "#fffdf7", stroke: colourOf(a, t.seat), "stroke-width": 2.5 }),
        svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: "turning-number" }, String(i + 1))));
    });
    const graph = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chance-graph", role: "img",
      "aria-label": a.cooperative ? "The crew's chance of winning over the game"
        : "Each player's chance of winning over the game" }, ...parts);
    $("graph").replaceChildren(graph);
    const legend = lines.map((seat) => el("span", { class: "legend-entry" },
      el("span", { class: "legend-swatch", "data-colour": colourOf(a, seat) }),
      a.cooperative ? "the crew" : nameOf(a, seat)));
    legend.push(el("span", { class: "legend-entry" }, el("span", { class: "legend-turning", text: "1" }), "turning point"));
    if (a.hints.length) legend.push(el("span", { class: "legend-entry" }, el("span", { class: "legend-hint", text: "H" }), "hint asked"));
    $("legend").replaceChildren(...legend);
    for (const swatch of document.querySelectorAll(".legend-swatch")) {
      swatch.style.background = swatch.dataset.colour; // CSSOM: allowed by the page's CSP
    }
    $("graph-title").textContent = a.cooperative ? "The crew's chance of winning over the game"
      : "Each player's chance of winning over the game";
    $("graph-note").textContent = `Before each decision, as the player to decide could judge it ` +
      `from what they could see (the coach at ${a.strength} strength); the last point is the outcome.`;
    $("graph-panel").hidden = false;
  }

  function drawTurning(a) {
    const items = a.turning.map((t, i) => {
      const who = nameOf(a, t.seat);
      const whose = a.cooperative ? "the crew" : who;
      const instead = t.hard_text === null
        ? el("p", { class: "note", text: "The hard level would have done the same." })
        : el("p", { class: "turning-instead" }, "The hard level would have chosen ",
          el("strong", { text: t.hard_text }), `: ${percent(t.hard)} against ${percent(t.taken)}.`);
      return el("li", { class: "turning-point", "data-step": t.step },
        el("p", {}, el("strong", { text: `${i + 1}. Decision ${t.step}` }),
          ` (turn ${t.turn}), ${who}: ${t.text}. `,
          el("span", { class: Math.round(100 * t.swing) === 0 ? "swing"
            : t.swing < 0 ? "swing swing-down" : "swing swing-up",
            text: `${CityWatch.cap(whose)} ${percent(t.before)} → ${percent(t.after)} (${points(t.swing)})` })),
        instead);
    });
    $("turning").replaceChildren(...items);
    if (!items.length) $("turning").replaceChildren(el("li", { text: "No decision with a choice changed anybody's chances." }));
    $("turning-panel").hidden = false;
  }

  function drawHints(a) {
    $("hints-panel").hidden = false;
    $("hints").replaceChildren(...(a.hints.length ? a.hints.map((h) => el("li", {
      text: `${nameOf(a, h.seat)} asked the coach for a hint (decision ${h.step + 1})`,
    })) : [el("li", { text: "Nobody asked the coach for a hint." })]));
  }

  function summary(a) {
    const winners = a.winners.map((s) => nameOf(a, s));
    const n = a.curve.length - 1;
    const who = a.cooperative ? (winners.length ? "The crew won" : "The crew lost")
      : winners.length ? `${winners.join(" and ")} won` : "Nobody won";
    return `${who}${a.reason ? ` (${a.reason})` : ""}, after ${CityWatch.plural(n, "decision")}.`;
  }

  async function start() {
    let response;
    let answer;
    try {
      response = await fetch(`/api/tables/${k0}/analysis`);
      answer = await response.json().catch(() => ({}));
    } catch (error) {
      $("summary").textContent = `Cannot reach the server: ${error.message}.`;
      return;
    }
    if (!response.ok) {
      $("summary").textContent = CityWatch.sentence(CityWatch.cap(answer.error || `the server answered ${response.status}`));
      document.body.dataset.analysis = "refused";
      return;
    }
    const a = answer;
    a.hints = Array.isArray(a.hints) ? a.hints : [];
    $("game-name").textContent = `${a.title || a.game} · analysis`;
    document.title = `Analysis · ${a.title || a.game} · citywatch`;
    $("summary").textContent = summary(a);
    $("replay-link").href = `/replay/${encodeURIComponent(a.replay || key)}`;
    $("record-link").href = `/api/record/${k0}`;
    $("links").hidden = false;
    drawGraph(a);
    drawTurning(a);
    drawHints(a);
    document.body.dataset.analysis = "shown";
  }

  start();
})();
