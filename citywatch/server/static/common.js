// citywatch: what every page shares, for any game: building elements (HTML and SVG), the log,
// a view as readable JSON, loading a game's board module, and the small helpers the boards
// share (their stylesheet and facts, the hint, plurals, capitals and winners, a map that
// zooms and pans, a panel of cards that widens to fit).
//
// A game with a web folder (Game.web_folder() on the server) has it served at
// /games/<name>/; its board.js registers a board module:
//
//   window.CityWatchBoards["<name>"] = {
//     load(base)          optional; a Promise, awaited once before anything is drawn
//                         (base is "/games/<name>/": fetch the board's data from there)
//     mount(main, side)   once: build the board's panels into two empty elements, the
//                         page's main column and its side column (above the log)
//     render(view, ctx)   every state: draw ``view`` (exactly what the server sent for this
//                         page's token) into what mount built. ``ctx``:
//                           page         "table" or "replay"
//                           seat         this page's seat (null: spectator or replay)
//                           step         decisions taken so far
//                           over         the game is over
//                           mine         a decision of this page's can be taken now
//                           choices      [{text, json}]: this seat's legal actions (or [])
//                           highlighted  a Set of choice indices picked out by ctx.pick
//                           log          the log lines this seat may read, oldest first
//                           last_move    what the newest public move touched, or null:
//                                        {by, spaces, ...} (Game.last_move; a board may
//                                        ignore it)
//                           moves        issue 26: the moves since this seat's last decision
//                                        (the replay: the decision shown), oldest first:
//                                        [{by, spaces, lines}] (Game.move_spaces); a board
//                                        marks each mover's spaces in its colour
//                                        (CityWatch.movesBySpace)
//                           naming(v)    indices of the choices whose JSON has a field equal
//                                        to v (other than "verb"), while ``mine``; else []
//                           pick(v)      take the one choice naming v, or pick out several
//                           act(i)       take choice i
//     who(view)           optional; the header's "who am I" (a Node or text), else generic
//     banner(view, ctx)   optional; the banner saying whose decision it is (a Node)
//     hint(view, ctx)     optional; the sentence above the choice buttons
//     label(text)         optional; a choice button's content (a Node or text)
//     outcome(view)       optional; the outcome box of a finished game (a Node)
//     space(name)         optional; a space of ``ctx.moves`` as people read it (else as is)
//   };
//
// A game without a board gets the generic panel: the view as collapsible JSON, and one
// button per choice (its text; it sends its JSON).
"use strict";

window.CityWatchBoards = window.CityWatchBoards || {};

const CityWatch = (() => {
  /** Set ``attrs`` on ``node``: ``class``, ``text`` (its text), ``on<event>`` (a listener),
   * anything else as an attribute (true: present; null, undefined, false: left out). */
  function setAttrs(node, attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.setAttribute("class", value);
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
  }

  /** A new element ``tag`` with ``attrs`` (see ``setAttrs``) and ``children``. */
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  }

  const SVG_NS = "http://www.w3.org/2000/svg";

  /** A new SVG element ``tag`` with ``attrs`` (see ``setAttrs``) and ``children``. */
  function svg(tag, attrs = {}, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttrs(node, attrs);
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  }

  /** ``text`` with its first letter a capital. */
  function cap(text) {
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  }

  /** "1 word" or "n words". */
  function plural(n, word) {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
  }

  /** Append "Winner: A" or "Winners: A and B" to ``node``, each winner as ``name(w)`` draws
   * it. */
  function appendWinners(node, winners, name) {
    node.append(winners.length > 1 ? "Winners: " : "Winner: ");
    winners.forEach((w, i) => {
      if (i) node.append(" and ");
      node.append(name(w));
    });
  }

  /** A board's ``hint(view, ctx)``: ``mine`` while a decision of the page's is open, else
   * who is deciding (null when nobody is). */
  function boardHint(mine) {
    return (view, ctx) => {
      if (ctx.mine) return mine;
      return view.decision
        ? `${view.decision.seat} is deciding. Your buttons appear here when a decision is yours.`
        : null;
    };
  }

  /** Add a board's stylesheet (its ``board.css``, at ``href``) to the page, unless a board's
   * is there already. */
  function addBoardStyle(href) {
    if (!document.querySelector("link[data-board-css]")) {
      document.head.append(el("link", { rel: "stylesheet", href, "data-board-css": "" }));
    }
  }

  /** The JSON at ``url`` (a board's facts); an Error "cannot load the ``what``" if the server
   * does not give it. */
  async function fetchJson(url, what) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`cannot load the ${what}`);
    return response.json();
  }

  /** A seat's name as a small coloured chip and the name (colours known to style.css get
   * their colour; others a plain chip). */
  function colourName(name, suffix = "") {
    return el("span", { class: `who who-${name}` }, el("span", { class: "chip" }), name + suffix);
  }

  const BOT_LABELS = { ismcts: "ISMCTS" };

  /** A bot level as people read it ("hard", "ISMCTS"). */
  function botLabel(level) {
    return BOT_LABELS[level] || level;
  }

  /** Issue 31: seconds as a clock reads them, rounded up: "4:59", or "1:02:03" from an hour. */
  function clockText(seconds) {
    const whole = Math.max(0, Math.ceil(seconds - 1e-6));
    const h = Math.floor(whole / 3600);
    const m = Math.floor((whole % 3600) / 60);
    const s = String(whole % 60).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
  }

  /** Issue 31: a length of time in words: "30 s", "5 min", "2 h", "1 day", "14 days". */
  function spanText(seconds) {
    if (seconds % 86400 === 0) return plural(seconds / 86400, "day");
    if (seconds % 3600 === 0) return `${seconds / 3600} h`;
    if (seconds % 60 === 0) return `${seconds / 60} min`;
    return `${seconds} s`;
  }

  /** Issue 31: a clock's rule ({kind, move, reserve, stand_in}) in words, as the table page
   * and the open tables show it. */
  function clockRuleText(clock) {
    const rule = clock.kind === "live"
      ? `Live clock: ${spanText(clock.move)} per decision` +
        (clock.reserve ? ` + ${spanText(clock.reserve)} reserve` : ", no reserve")
      : `Turn-based clock: ${spanText(clock.move)} per move`;
    return `${rule} · stand-in: ${botLabel(clock.stand_in)} bot`;
  }

  /**
   * Issue 16: one list item per seat, its colour swatch and name ("Red — Ann", "Blue — hard
   * bot", or "no name yet" for a person not named yet), this page's ``seat`` marked "(you)"
   * (followed by ``own``, a Node, if given) and the seat deciding now (the view's
   * ``decision.seat``) tagged. ``table`` is what the server tells every seat of the table:
   * ``colours``, ``names`` and ``bots``, one per seat. Names are text only, never HTML.
   */
  function seatEntries(table, view, seat, own = null) {
    const deciding = view && view.decision && !table.over ? view.decision.seat : null;
    return table.colours.map((colour, i) => {
      const name = table.names[i];
      const bot = table.bots[i];
      const label = name
        ? el("span", { class: "seat-name", text: name })
        : bot
          ? el("span", { class: "seat-name seat-bot", text: `${botLabel(bot)} bot` })
          : (table.free || []).includes(i) // issue 31: an open table's seat not taken yet
            ? el("span", { class: "seat-name seat-unnamed seat-free", text: "free seat (open table)" })
            : el("span", { class: "seat-name seat-unnamed", text: "no name yet" });
      const now = colour === deciding;
      const item = el("li", {
        class: `seat-entry${i === seat ? " me" : ""}${now ? " deciding" : ""}`, "data-seat": i,
      }, el("span", { class: `who who-${String(colour).replace(/[^A-Za-z0-9]+/g, "-")}` },
        el("span", { class: "chip" }), colour), " — ", label);
      if (i === seat) item.append(el("span", { class: "seat-you", text: " (you)" }), own || "");
      if (now) item.append(el("span", { class: "tag tag-deciding", text: "deciding" }));
      return item;
    });
  }

  /** ``text`` ending with a full stop (or the mark it already ends with). */
  function sentence(text) {
    return /[.!?…]$/.test(text) ? text : `${text}.`;
  }

  /** Log lines into ``host``, turn starts standing out, scrolled to the newest line
   * (unless the reader has scrolled up to read older lines). */
  function fillLog(host, lines) {
    const reading = host.childElementCount > 0 &&
      host.scrollHeight - host.scrollTop - host.clientHeight > 40;
    host.replaceChildren(...lines.map((line) => el("li", {
      class: /^Turn \d+:/.test(line) ? "turn-start" : null, text: line,
    })));
    if (!reading) host.scrollTop = host.scrollHeight;
  }

  /**
   * ``value`` as readable, collapsible JSON: objects and arrays are <details> (open to
   * ``depth`` levels, or as the reader left them: ``closed`` holds the paths they shut and
   * ``opened`` those they opened).
   */
  function jsonTree(value, state = { closed: new Set(), opened: new Set() }, depth = 2) {
    function node(v, path, level, key) {
      const label = key === null ? null : el("span", { class: "json-key", text: `${key}: ` });
      const flat = Array.isArray(v) && v.every((x) => x === null || typeof x !== "object");
      if (flat && JSON.stringify(v).length <= 60) { // a short list of plain values: one line
        return el("div", { class: "json-row", "data-path": path }, label,
          el("span", { class: "json-list" }, "[", ...v.flatMap((x, i) => [
            i ? ", " : null,
            el("span", { class: `json-${x === null ? "null" : typeof x}`, text: JSON.stringify(x) }),
          ].filter((n) => n !== null)), "]"));
      }
      if (v !== null && typeof v === "object") {
        const entries = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
        const brief = Array.isArray(v) ? `[${v.length}]` : `{${entries.length}}`;
        if (!entries.length) {
          return el("div", { class: "json-row" }, label,
            el("span", { class: "json-empty", text: Array.isArray(v) ? "[]" : "{}" }));
        }
        const open = state.opened.has(path) || (level < depth && !state.closed.has(path));
        const box = el("details", { class: "json-node", "data-path": path, open });
        box.append(el("summary", {}, label, el("span", { class: "json-brief", text: brief })));
        box.addEventListener("toggle", () => {
          if (box.open) {
            state.closed.delete(path);
            state.opened.add(path);
          } else {
            state.opened.delete(path);
            state.closed.add(path);
          }
        });
        const body = el("div", { class: "json-body" });
        for (const [k, x] of entries) body.append(node(x, `${path}/${k}`, level + 1, k));
        box.append(body);
        return box;
      }
      const kind = v === null ? "null" : typeof v;
      return el("div", { class: "json-row" }, label,
        el("span", { class: `json-${kind}`, text: JSON.stringify(v) }));
    }
    return node(value, "", 0, null);
  }

  /**
   * Issue 26: the end screen's breakdown, for any game: one card per seat from ``end`` (the
   * server's ``end``: ``points``, what they count; ``winners``; ``seats``, each with its
   * ``colour``, ``points``, labelled ``parts`` adding up to them, its ``result`` in words,
   * what the end ``revealed`` and ``notes``). ``names`` (a person's name per seat, or null)
   * and ``seat`` (this page's, marked "you") as the table tells them. Null without ``end``.
   */
  function endScores(end, names = [], seat = null) {
    if (!end || !Array.isArray(end.seats)) return null;
    const word = String(end.points || "points");
    const winners = Array.isArray(end.winners) ? end.winners : [];
    const cards = end.seats.map((entry, i) => {
      const won = winners.includes(i);
      const name = names[i];
      const head = el("h3", { class: "end-head" },
        el("span", { class: `who who-${String(entry.colour).replace(/[^A-Za-z0-9]+/g, "-")}` },
          el("span", { class: "chip" }), String(entry.colour)),
        name ? el("span", { class: "end-name", text: ` — ${name}` }) : null,
        i === seat ? el("span", { class: "seat-you", text: " (you)" }) : null,
        won ? el("span", { class: "tag tag-won", text: "won" }) : null,
        el("span", { class: "end-total", text: `${cap(word)}: ${entry.points}` }));
      const rows = (entry.parts || []).map((part) => el("tr", {},
        el("th", { scope: "row", text: part.label }),
        el("td", { class: "end-detail", text: part.detail || "" }),
        el("td", { class: "num", text: String(part.points) })));
      rows.push(el("tr", { class: "end-sum" }, el("th", { scope: "row", text: "Total" }),
        el("td", { class: "end-detail", text: rows.length ? "" : `nothing scored` }),
        el("td", { class: "num", text: String(entry.points) })));
      const card = el("section", {
        class: `end-seat${won ? " end-won" : ""}${i === seat ? " me" : ""}`, "data-seat": i,
      }, head, el("p", { class: "end-result", text: String(entry.result || "") }),
      el("table", { class: "end-parts" }, el("tbody", {}, ...rows)));
      const revealed = entry.revealed || [];
      if (revealed.length) {
        card.append(el("dl", { class: "end-revealed" }, ...revealed.flatMap((r) => [
          el("dt", { text: String(r.what) }), el("dd", { text: String(r.value) })])));
      }
      for (const note of entry.notes || []) {
        card.append(el("p", { class: "note end-note", text: String(note) }));
      }
      return card;
    });
    return el("div", { class: "end-scores", "data-points": word }, ...cards);
  }

  const loading = new Map();

  /** The board module of game ``name`` (its board.js loaded and its ``load`` awaited), or
   * null if it cannot be loaded. */
  function loadBoard(name) {
    if (!loading.has(name)) {
      loading.set(name, new Promise((resolve) => {
        const base = `/games/${encodeURIComponent(name)}/`;
        const script = document.createElement("script");
        script.src = `${base}board.js`;
        script.onload = async () => {
          const board = window.CityWatchBoards[name];
          if (!board) {
            resolve(null);
            return;
          }
          try {
            if (board.load) await board.load(base);
            resolve(board);
          } catch (error) {
            console.warn(`the board of ${name} cannot load its data: ${error.message}`);
            resolve(null);
          }
        };
        script.onerror = () => resolve(null);
        document.head.append(script);
      }));
    }
    return loading.get(name);
  }


  // ---- issue 26: a board's map that zooms and pans, and a panel that widens to fit ---------

  const ZOOM_STEP = 1.25;

  /**
   * Zoom and pan for a board's SVG map. ``frame`` is the element the board draws its <svg>
   * (with a viewBox) into, sized by the board's CSS; it becomes a scroll box showing the map
   * at a scale (screen pixels per map unit): at first the larger of "the whole map fits" and
   * "its smallest text is ``readable`` px on the screen". The person zooms with the buttons
   * of ``tools`` (or + - 0 1 on the map, Ctrl+wheel, a pinch) and pans by scrolling, by
   * dragging or with the arrow keys; a drag is not a click. Text under ``readable`` px at the
   * scale shown is hidden (class cw-tiny): zoomed out, the map keeps its shapes and colours,
   * the names on hover. The board calls ``show(root, focus)`` after each drawing: ``focus``
   * (a point of the map, or null) is centred the first time, and later when it is new and
   * out of sight. The frame's data-zoom is the scale, its data-whole "yes" when the whole
   * map is in sight.
   */
  function zoomMap(frame, { readable = 11, name = "the map" } = {}) {
    let root = null; // the <svg> shown
    let box = [0, 0, 1, 1]; // its viewBox
    let scale = null; // null: not laid out yet
    let chosen = false; // the person chose the scale (else it follows the frame's size)
    let centre = null; // the map point at the frame's centre
    let focused = null; // the last focus shown
    let texts = []; // [element, font size in map units]
    let drag = null;
    let dragged = false;

    frame.classList.add("cw-zoom-frame");
    frame.tabIndex = 0;
    frame.setAttribute("aria-label",
      `${name}: drag, scroll or use the arrow keys to move; + and - to zoom, 0 for the whole map`);
    frame.title = "Drag, scroll or use the arrow keys to move; Ctrl+wheel, + and - to zoom";

    const button = (text, title, onclick) => el("button", {
      type: "button", class: "cw-zoom-button", text, title, "aria-label": title, onclick,
    });
    const zoomOut = button("\u2212", "Zoom out (-)", () => zoomBy(1 / ZOOM_STEP));
    const zoomIn = button("+", "Zoom in (+)", () => zoomBy(ZOOM_STEP));
    const whole = button("Whole map", "Zoom out to the whole map (0)", () => choose(limits().min));
    const normal = button("Readable", "Back to the size where every label can be read (1)",
      () => { chosen = false; apply(limits().start); });
    const tools = el("div", { class: "cw-zoom-tools", role: "group", "aria-label": `Zoom ${name}` },
      zoomOut, zoomIn, whole, normal,
      el("span", { class: "cw-zoom-help", text: "drag to move, Ctrl+wheel to zoom" }));

    /** The frame's inner size, scroll bars left out. */
    function room() {
      const r = frame.getBoundingClientRect();
      return [r.width - frame.clientLeft * 2, r.height - frame.clientTop * 2];
    }

    /** The scales: the whole map in sight, the first one, the least and the most. */
    function limits() {
      const [w, h] = room();
      const fit = Math.max(0.05, Math.min((w - 2) / box[2], (h - 2) / box[3]));
      const font = texts.reduce((m, [, f]) => (f > 0 ? Math.min(m, f) : m), Infinity);
      const start = Number.isFinite(font) ? Math.max(fit, readable / font) : fit;
      return { fit, start, min: fit, max: start * 3 };
    }

    /** The svg's top left corner in the frame's scrolled content (centred while smaller). */
    function offset() {
      return [Math.max(0, (frame.clientWidth - box[2] * scale) / 2),
        Math.max(0, (frame.clientHeight - box[3] * scale) / 2)];
    }

    /** The map point at (x, y) of the frame's box. */
    function mapPoint(x, y) {
      const [ox, oy] = offset();
      return [box[0] + (frame.scrollLeft + x - ox) / scale, box[1] + (frame.scrollTop + y - oy) / scale];
    }

    /** Whether the map point is in sight with the frame centred on ``centre`` (as the next
     * drawing shows it; the frame's own scroll may be reset while a new map replaces the
     * old). */
    function nearCentre([px, py]) {
      if (!centre) return inSight([px, py]);
      const margin = 20;
      return Math.abs(px - centre[0]) * scale <= frame.clientWidth / 2 - margin &&
        Math.abs(py - centre[1]) * scale <= frame.clientHeight / 2 - margin;
    }

    function inSight([px, py]) {
      const [x, y] = [(px - box[0]) * scale + offset()[0] - frame.scrollLeft,
        (py - box[1]) * scale + offset()[1] - frame.scrollTop];
      const margin = 20;
      return x >= margin && y >= margin && x <= frame.clientWidth - margin &&
        y <= frame.clientHeight - margin;
    }

    /** Draw at scale ``next`` (kept within the limits), the map point under (x, y) of the
     * frame staying there (no point: the centre stays the centre). */
    function apply(next, at = null) {
      if (!root) return;
      const lim = limits();
      const [x, y] = at || [frame.clientWidth / 2, frame.clientHeight / 2];
      const point = at && scale ? mapPoint(x, y) : centre || [box[0] + box[2] / 2, box[1] + box[3] / 2];
      scale = Math.min(lim.max, Math.max(lim.min, next));
      root.setAttribute("width", Math.floor(box[2] * scale));
      root.setAttribute("height", Math.floor(box[3] * scale));
      const [ox, oy] = offset();
      frame.scrollLeft = ox + (point[0] - box[0]) * scale - x;
      frame.scrollTop = oy + (point[1] - box[1]) * scale - y;
      centre = mapPoint(frame.clientWidth / 2, frame.clientHeight / 2);
      for (const [t, f] of texts) t.classList.toggle("cw-tiny", f * scale < readable - 0.01);
      const all = scale <= lim.fit * 1.001;
      frame.dataset.zoom = scale.toFixed(4);
      frame.dataset.whole = all ? "yes" : "no";
      zoomOut.disabled = scale <= lim.min * 1.001;
      zoomIn.disabled = scale >= lim.max * 0.999;
      whole.disabled = all;
      normal.disabled = Math.abs(scale - lim.start) < 1e-3;
    }

    function choose(next, at = null) {
      chosen = true;
      apply(next, at);
    }

    function zoomBy(factor, at = null) {
      if (scale) choose(scale * factor, at);
    }

    /** The map's texts and their font sizes (a board's stylesheet may come after its map). */
    function measure() {
      texts = [...root.querySelectorAll("text")].map((t) => [t, parseFloat(getComputedStyle(t).fontSize)]);
    }

    /** After each drawing: ``svgRoot`` is the new map, ``focus`` a point to keep in sight. */
    function show(svgRoot, focus = null) {
      root = svgRoot;
      const vb = (root.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
      if (vb.length === 4 && vb.every(Number.isFinite) && vb[2] > 0 && vb[3] > 0) box = vb;
      measure();
      const fresh = focus && !(focused && focused[0] === focus[0] && focused[1] === focus[1]);
      if (!frame.clientWidth || !frame.clientHeight) {
        scale = null; // not laid out (hidden): the frame's first size draws it,
        if (fresh) centre = null; // centred on a focus that is new meanwhile
        focused = focus;
        return;
      }
      if (scale === null) {
        if (!centre && focus) centre = focus;
      } else if (fresh && !nearCentre(focus)) {
        centre = focus;
      }
      focused = focus;
      apply(scale === null || !chosen ? limits().start : scale);
    }

    frame.addEventListener("scroll", () => {
      if (root && scale) centre = mapPoint(frame.clientWidth / 2, frame.clientHeight / 2);
    });
    new ResizeObserver(() => {
      if (!root || !frame.clientWidth || !frame.clientHeight) return;
      if (scale === null) {
        show(root, focused);
        return;
      }
      measure();
      apply(chosen ? scale : limits().start);
    }).observe(frame);
    frame.addEventListener("wheel", (event) => {
      if (!(event.ctrlKey || event.metaKey) || !scale) return;
      event.preventDefault();
      const r = frame.getBoundingClientRect();
      zoomBy(Math.exp(-event.deltaY * 0.002),
        [event.clientX - r.left - frame.clientLeft, event.clientY - r.top - frame.clientTop]);
    }, { passive: false });
    frame.addEventListener("keydown", (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const keys = {
        "+": () => zoomBy(ZOOM_STEP), "=": () => zoomBy(ZOOM_STEP), "-": () => zoomBy(1 / ZOOM_STEP),
        0: () => choose(limits().min), 1: () => { chosen = false; apply(limits().start); },
      };
      if (keys[event.key] && scale) {
        event.preventDefault();
        keys[event.key]();
      }
    });
    frame.addEventListener("pointerdown", (event) => {
      dragged = false;
      if (event.button !== 0 || event.pointerType === "touch") return;
      drag = { id: event.pointerId, x: event.clientX, y: event.clientY,
        left: frame.scrollLeft, top: frame.scrollTop, moving: false };
    });
    frame.addEventListener("pointermove", (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      const [dx, dy] = [event.clientX - drag.x, event.clientY - drag.y];
      if (!drag.moving) {
        if (Math.hypot(dx, dy) < 6) return;
        drag.moving = true;
        frame.setPointerCapture(drag.id);
        frame.classList.add("cw-dragging");
      }
      frame.scrollLeft = drag.left - dx;
      frame.scrollTop = drag.top - dy;
    });
    const stop = (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      dragged = drag.moving;
      drag = null;
      frame.classList.remove("cw-dragging");
    };
    frame.addEventListener("pointerup", stop);
    frame.addEventListener("pointercancel", stop);
    frame.addEventListener("click", (event) => { // the click that ends a drag takes nothing
      if (!dragged) return;
      dragged = false;
      event.stopPropagation();
      event.preventDefault();
    }, true);

    return { show, tools, scale: () => scale };
  }

  /**
   * Give ``node`` the first of ``widths`` (classes, narrowest first) at which ``measure`` (a
   * part of it, or itself) is no taller than ``height`` px and ``rest`` px of ``row`` (the
   * row it stands in) are left for what stands beside it. If none does: the narrowest
   * (``widest`` false: what stands beside keeps its room) or the widest that leaves ``rest``
   * (``widest`` true: the most of ``node`` in sight); the rest runs on below. A panel of
   * one's cards takes a second column rather than a scroll bar. Returns the class chosen.
   */
  function fitWidth(node, widths, height, { row = null, rest = 0, measure = node, widest = false } = {}) {
    let chosen = null;
    let widestLeaving = widths[0];
    for (const cls of widths) {
      node.classList.remove(...widths);
      node.classList.add(cls);
      if (cls !== widths[0] && row && row.clientWidth - node.offsetWidth < rest) break;
      widestLeaving = cls;
      if (measure.offsetHeight <= height) {
        chosen = cls;
        break;
      }
    }
    chosen = chosen || (widest ? widestLeaving : widths[0]);
    node.classList.remove(...widths);
    node.classList.add(chosen);
    return chosen;
  }

  /** Issue 26: a board's marks of ``ctx.moves``: a Map from each space touched to the
   * movers that touched it, oldest first, each once. */
  function movesBySpace(moves) {
    const marks = new Map();
    for (const move of Array.isArray(moves) ? moves : []) {
      for (const space of move.spaces || []) {
        if (!marks.has(space)) marks.set(space, []);
        if (!marks.get(space).includes(move.by)) marks.get(space).push(move.by);
      }
    }
    return marks;
  }

  return {
    el, setAttrs, svg, cap, plural, appendWinners, boardHint, addBoardStyle, fetchJson, colourName,
    sentence, fillLog, jsonTree, loadBoard, botLabel, seatEntries, zoomMap, fitWidth, endScores,
    movesBySpace, spanText, clockRuleText, clockText,
  };
})();
