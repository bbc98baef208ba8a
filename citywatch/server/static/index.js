// citywatch: the start page. The games come from GET /api/games (each with its seat range
// and the server's bot levels); POST /api/tables, then one private link per person.
// A chosen seed makes a practice table ("practice": true): whoever knows the seed can know
// every hidden card, so the page says so next to the seed and every seat's page says so too.
// A game with options (each {name, help, default, min, max}, or {name, help, default,
// choices} for a choice) gets one number input or one pick each; those changed from their
// default are sent as "options".
// A game's set-up choices (its declaration's "setup": each {name, plural, keyword, per_seat,
// help, shipped: [{id, name, summary}]}, a deck per seat or a scenario, say) get a pick each:
// one for the table, or one per seat for a per-seat choice. A pick is a shipped document (by
// name, its summary as the title and under the pick, issue 29) or "Upload a <name> (JSON
// file)…", read as JSON here and sent whole. A per-seat choice is sent as options[keyword], a list in seat order; a
// per-table one only if it is not the first shipped document (the default) or is an upload.
// The server checks every rule and answers 400 naming the rule broken. The page reads only
// the declaration: no game's name or keyword is written here.
// Issue 30: "Allow hints" is sent as "hints" (true or false); until the person changes it, it
// follows the seats: on with exactly one person, off with two or more (the server's default).
// Issue 16: "Your name" names the first person's seat (the creator's), sent as "names" (one
// per seat, null for the others); it is remembered in localStorage as the default next time.
// Issue 31: "List it among the open tables" is sent as "public"; the free seats' links are
// not given to the creator. "Open tables" lists GET /api/open-tables, asked every
// OPEN_POLL_MS while the page is shown; "Take a seat" posts to
// /api/open-tables/<table>/take (with "Your name", if given) and opens the seat's link.
// Issue 31, clocks: "Clock" is none (sent as "clock": null), live (seconds per decision and
// a reserve) or turn-based (seconds per move, an hour to 14 days); the stand-in is one of the
// game's bots (easy when offered). "Spectators read the chat" is sent as "spectators_chat".
"use strict";

(() => {
  const { el } = CityWatch;
  const $ = (id) => document.getElementById(id);
  const BOT_LABELS = { easy: "easy", normal: "normal", hard: "hard", ismcts: "ISMCTS" };
  let games = []; // GET /api/games
  let game = null; // the chosen one
  // The seats chosen so far, kept when the number of players changes.
  let chosen = [];
  // The chosen game's set-up choices (its declaration's "setup"). Each gets one pick per
  // seat (the most seats) or one for the table: picks[keyword][i] is a shipped document's id
  // or UPLOAD, and files[keyword][i] the file picker of that pick. Every seat's picks are
  // drawn once per game (those past the number of players hidden), so a picked file stays.
  const UPLOAD = "upload";
  let setup = [];
  let picks = {};
  let files = {};
  const NAME_KEY = "citywatch.name"; // localStorage: the name last given (also by table pages)
  let hintsChosen = false; // issue 30: the person set "Allow hints" (it no longer follows the seats)

  /** Issue 30: "Allow hints" at its default for the seats chosen, unless the person set it. */
  function followHints() {
    if (hintsChosen || !game) return;
    const people = chosen.slice(0, players()).filter((kind) => kind === "human").length;
    $("hints").checked = people === 1;
  }

  function players() {
    const checked = document.querySelector('input[name="players"]:checked');
    return checked ? Number(checked.value) : 0;
  }

  /** The seat kinds of the chosen game: a person, or one of the server's bot levels. */
  function kinds() {
    return [["human", "Person (gets a link)"],
      ...game.bots.map((bot) => [bot, `Bot: ${BOT_LABELS[bot] || bot}`])];
  }

  /** Show game ``name``: its title, seat counts (the most checked) and seats. */
  function chooseGame(name) {
    game = games.find((g) => g.name === name) || games[0];
    $("game-name").textContent = game.title;
    $("how-to-play").href = `/how-to-play/${encodeURIComponent(game.name)}`;
    $("how-to-play").hidden = !game.how_to_play;
    document.title = `New game · ${game.title} · citywatch`;
    const counts = [];
    for (let n = game.min_players; n <= game.max_players; n++) {
      counts.push(el("label", {}, el("input", {
        type: "radio", name: "players", value: n, checked: n === game.max_players,
        onchange: drawSeats,
      }), String(n)));
    }
    $("count").replaceChildren(...counts);
    const bot = game.bots.includes("normal") ? "normal" : game.bots[1] || game.bots[0] || "human";
    chosen = Array.from({ length: game.max_players }, (_, i) => (i === 0 ? "human" : bot));
    setup = game.type && Array.isArray(game.type.setup)
      ? game.type.setup.filter((choice) => choice.shipped.length > 0) : [];
    drawSetup();
    drawSeats();
    drawOptions();
    drawStandIns();
  }

  // ---- issue 31: the clock ----

  /** The stand-in pick: the chosen game's bots, easy (else the first) chosen. */
  function drawStandIns() {
    const chosenLevel = game.bots.includes("easy") ? "easy" : game.bots[0];
    $("clock-stand-in").replaceChildren(...game.bots.map((bot) => el("option", {
      value: bot, selected: bot === chosenLevel, text: `${CityWatch.botLabel(bot)} bot`,
    })));
    showClock();
  }

  /** Show the parts of the clock kind chosen (none: no part). */
  function showClock() {
    const kind = $("clock-kind").value;
    $("clock-live").hidden = kind !== "live";
    $("clock-turn").hidden = kind !== "turn-based";
    $("clock-stand-in-part").hidden = kind === "" || game === null || game.bots.length === 0;
  }

  /** The clock to send: null for none, else its kind, seconds and stand-in. */
  function chosenClock() {
    const kind = $("clock-kind").value;
    if (kind === "live") {
      return { kind, move: Number($("clock-move-live").value),
        reserve: Number($("clock-reserve").value), stand_in: $("clock-stand-in").value };
    }
    if (kind === "turn-based") {
      return { kind, move: Number($("clock-move-turn").value), stand_in: $("clock-stand-in").value };
    }
    return null;
  }

  /** The chosen game's options: a number input or a pick each, at its default (none:
   * hidden). */
  function drawOptions() {
    const options = Array.isArray(game.options) ? game.options : [];
    const rows = [];
    const tuning = [];
    for (const option of options) {
      const id = `option-${option.name}`;
      if (Array.isArray(option.choices)) {
        const select = el("select", { id, "data-option": option.name,
          title: `${option.help} (default ${option.default})` });
        for (const choice of option.choices) {
          select.append(el("option", { value: choice, selected: choice === option.default, text: choice }));
        }
        rows.push(el("label", { for: id, text: option.name }), select,
          el("p", { class: "note option-help", text: `${option.help} (default ${option.default}).` }));
        continue;
      }
      // Every number option has both bounds (issue 24): the input keeps to them.
      const range = `${option.min} to ${option.max}`;
      (option.tuning ? tuning : rows).push(el("label", { for: id, text: option.name }), el("input", {
        type: "number", id, "data-option": option.name, step: 1, min: option.min,
        max: option.max, value: option.default, required: true,
        title: `${option.help} (${range}, default ${option.default})`,
      }), el("p", { class: "note option-help", text: `${option.help} (${range}, default ${option.default}).` }));
    }
    if (tuning.length > 0) {
      // The rules' numbers, for designers: folded away until asked for.
      const details = el("details", { id: "tuning" });
      details.append(el("summary", { text: "Tune the rules' numbers" }),
        el("div", { class: "option-list" }));
      details.lastChild.append(...tuning);
      rows.push(details);
    }
    $("options").replaceChildren(...rows);
    $("options-row").hidden = rows.length === 0;
  }

  /** The options changed from their default, or a sentence saying which one is wrong. */
  function chosenOptions() {
    const options = {};
    for (const option of Array.isArray(game.options) ? game.options : []) {
      const text = $(`option-${option.name}`).value.trim();
      if (Array.isArray(option.choices)) {
        if (text !== option.default) options[option.name] = text;
        continue;
      }
      const value = Number(text);
      if (text === "" || !Number.isInteger(value) || value < option.min || value > option.max) {
        return { error: `The option ${option.name} must be a whole number from ${option.min} to ${option.max}.` };
      }
      if (value !== option.default) options[option.name] = value;
    }
    return { options };
  }

  function drawSeats() {
    const rows = [];
    for (let i = 0; i < players(); i++) {
      const select = el("select", { id: `seat-${i}`, "data-seat": i });
      for (const [value, label] of kinds()) {
        select.append(el("option", { value, selected: chosen[i] === value, text: label }));
      }
      select.addEventListener("change", () => {
        chosen[i] = select.value;
        followHints();
      });
      rows.push(el("label", { for: `seat-${i}`, text: `Seat ${i + 1}` }), select);
    }
    $("seats").replaceChildren(...rows);
    showSeats();
    followHints();
  }

  /** The picks of the chosen game's set-up choices, each at its default (the shipped
   * documents in order, round again for a per-seat choice): one form row per choice (none:
   * hidden). */
  function drawSetup() {
    picks = {};
    files = {};
    const rows = setup.map((choice) => (choice.per_seat ? perSeatRow(choice) : perTableRow(choice)));
    $("setup").replaceChildren(...rows);
    $("setup").hidden = rows.length === 0;
  }

  /** A select of ``choice``'s shipped documents and an upload, with its file picker on a
   * line of its own under it (shown for an upload). ``seat``: the seat (from 0), or null for
   * a per-table choice. Returns [select, picker]. */
  function pick(choice, seat) {
    const key = choice.keyword;
    const at = seat === null ? 0 : seat;
    const suffix = seat === null ? "" : `-${seat}`;
    const shipped = choice.shipped;
    picks[key][at] = shipped[at % shipped.length].id;
    const select = el("select", { id: `setup-${key}${suffix}`, "data-setup": key });
    for (const doc of shipped) {
      select.append(el("option", { value: doc.id, selected: picks[key][at] === doc.id,
        text: doc.name, title: doc.summary || null }));
    }
    for (const name of Object.keys(builtSaved(choice)).sort()) {
      select.append(el("option", { value: `${SAVED}${name}`, text: `${name} (saved in this browser)` }));
    }
    select.append(el("option", { value: UPLOAD, text: `Upload a ${choice.name} (JSON file)…` }));
    const whose = seat === null ? `The ${choice.name}` : `Seat ${seat + 1}'s ${choice.name}`;
    const file = el("input", { type: "file", id: `setup-${key}-file${suffix}`,
      accept: ".json,application/json", "aria-label": `${whose} file` });
    files[key][at] = file;
    const picker = el("span", { class: "setup-file" }, file);
    picker.hidden = true;
    select.addEventListener("change", () => {
      picks[key][at] = select.value;
      picker.hidden = select.value !== UPLOAD;
    });
    return [select, picker];
  }

  /** A per-seat choice's row: a pick per seat (the most seats; ``showSeats`` hides those
   * past the number of players). */
  function perSeatRow(choice) {
    const key = choice.keyword;
    picks[key] = [];
    files[key] = [];
    const list = el("div", { class: "setup-list" });
    for (let i = 0; i < game.max_players; i++) {
      const [select, picker] = pick(choice, i);
      list.append(el("div", { class: "setup-seat", "data-seat": String(i) },
        el("label", { for: select.id, text: `Seat ${i + 1}` }), select, picker,
        summaryOf(choice, select, `setup-${key}-summary-${i}`)));
    }
    return el("div", { class: "form-row setup-row", id: `setup-row-${key}` },
      el("span", { class: "label", text: CityWatch.cap(choice.plural) }), list, setupNote(choice));
  }

  /** Issue 29: the summary of the shipped document ``select`` picks from ``choice``, in a
   * paragraph (id ``id``) that follows the pick (hidden for an upload or no summary). */
  function summaryOf(choice, select, id) {
    const summary = el("p", { class: "note setup-summary", id });
    const describe = () => {
      const doc = choice.shipped.find((d) => d.id === select.value);
      summary.textContent = doc ? doc.summary || "" : "";
      summary.hidden = !summary.textContent;
    };
    select.addEventListener("change", describe);
    describe();
    return summary;
  }

  /** A per-table choice's row: one pick, the chosen shipped document's summary under it. */
  function perTableRow(choice) {
    const key = choice.keyword;
    picks[key] = [];
    files[key] = [];
    const [select, picker] = pick(choice, null);
    const summary = summaryOf(choice, select, `setup-${key}-summary`);
    return el("div", { class: "form-row setup-row", id: `setup-row-${key}` },
      el("label", { for: select.id, text: CityWatch.cap(choice.name) }),
      el("div", { class: "setup-one" }, select, picker), summary, setupNote(choice));
  }

  /** What a set-up choice chooses, and how one's own document is checked; a link to its
   * builder if it has one. */
  function setupNote(choice) {
    const help = choice.help ? `${CityWatch.cap(choice.help)}. ` : "";
    const build = choice.builder
      ? [" ", el("a", { class: "builder-link", href: builderPath(choice), target: "_blank",
        rel: "noopener", text: `Build a ${choice.name} in the browser` }),
      ` (saved ${choice.plural} are offered here once this page is reloaded).`] : [];
    return el("p", { class: "note" }, `${help}A ${choice.name} of your own is a JSON file (`,
      el("code", { text: `citywatch ${choice.name} check FILE` }),
      " checks one); the server checks every rule before it sets the table up.", ...build);
  }

  // Issue 29: a choice with a builder (its declaration's "builder": true) links to
  // /build/<game>/<keyword>, which saves documents in localStorage under
  // "citywatch.built.<game>.<keyword>" ({name: document}); each pick offers them.
  const SAVED = "saved:";

  function builderPath(choice) {
    return `/build/${encodeURIComponent(game.name)}/${encodeURIComponent(choice.keyword)}`;
  }

  /** The documents of ``choice`` saved in this browser by its builder, {name: document}. */
  function builtSaved(choice) {
    if (!choice.builder) return {};
    try {
      const found = JSON.parse(localStorage.getItem(`citywatch.built.${game.name}.${choice.keyword}`) || "{}");
      return found && typeof found === "object" && !Array.isArray(found) ? found : {};
    } catch {
      return {};
    }
  }

  /** Show the per-seat picks of the seats played, hide the others'. */
  function showSeats() {
    for (const row of $("setup").querySelectorAll(".setup-seat")) {
      row.hidden = Number(row.dataset.seat) >= players();
    }
  }

  /** The document of one pick to send: a shipped id, or an uploaded file read as JSON; or
   * a sentence saying what is missing or wrong. ``seat``: null for a per-table choice. */
  async function chosenDocument(choice, seat) {
    const at = seat === null ? 0 : seat;
    const value = picks[choice.keyword][at];
    if (value.startsWith(SAVED)) {
      const doc = builtSaved(choice)[value.slice(SAVED.length)];
      return doc ? { value: doc } : { error: `The saved ${choice.name} ${value.slice(SAVED.length)} is gone.` };
    }
    if (value !== UPLOAD) return { value };
    const whose = seat === null ? `the ${choice.name}` : `seat ${seat + 1}'s ${choice.name}`;
    const picked = files[choice.keyword][at].files[0];
    if (!picked) {
      return { error: `Choose ${whose} file, or one of the ${choice.plural} offered.` };
    }
    let text;
    try {
      text = await picked.text();
    } catch {
      return { error: `${CityWatch.cap(whose)} file ${picked.name} cannot be read.` };
    }
    try {
      return { value: JSON.parse(text) };
    } catch {
      return { error: `${CityWatch.cap(whose)} file ${picked.name} is not valid JSON.` };
    }
  }

  /** The set-up choices to send as options (by keyword), or the first sentence saying
   * which pick is missing or wrong. */
  async function chosenSetup() {
    const options = {};
    for (const choice of setup) {
      if (choice.per_seat) {
        const list = [];
        for (let i = 0; i < players(); i++) {
          const one = await chosenDocument(choice, i);
          if (one.error) return { error: one.error };
          list.push(one.value);
        }
        options[choice.keyword] = list;
        continue;
      }
      const one = await chosenDocument(choice, null);
      if (one.error) return { error: one.error };
      if (one.value !== choice.shipped[0].id) options[choice.keyword] = one.value;
    }
    return { options };
  }

  /** Fill the game picker from the server (the first game chosen). */
  async function loadGames() {
    try {
      const response = await fetch("/api/games");
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      games = await response.json();
    } catch (error) {
      fail(`Cannot load the list of games: ${error.message}`);
      $("create").disabled = true;
      return;
    }
    const picker = $("game");
    picker.replaceChildren(...games.map((g) => el("option", { value: g.name, text: g.title })));
    picker.addEventListener("change", () => chooseGame(picker.value));
    if (games.length) chooseGame(games[0].name);
    document.body.dataset.ready = "yes";
  }

  async function create(event) {
    event.preventDefault();
    $("create-error").replaceChildren();
    const seats = chosen.slice(0, players());
    if (!game) return;
    const body = { game: game.name, seats, hints: $("hints").checked, public: $("public").checked,
      spectators_chat: $("spectators-chat").checked, clock: chosenClock() };
    const picked = chosenOptions();
    if (picked.error) {
      fail(picked.error);
      return;
    }
    $("create").disabled = true; // while uploaded files are read
    const pickedSetup = await chosenSetup();
    $("create").disabled = false;
    if (pickedSetup.error) {
      fail(pickedSetup.error);
      return;
    }
    Object.assign(picked.options, pickedSetup.options);
    if (Object.keys(picked.options).length) body.options = picked.options;
    const name = $("your-name").value.trim();
    const creator = seats.indexOf("human");
    if (name && creator >= 0) {
      body.names = seats.map((_, i) => (i === creator ? name : null));
    }
    const seedText = $("seed").value.trim();
    if (seedText !== "") {
      const seed = Number(seedText);
      if (!Number.isInteger(seed) || seed < 0) {
        fail("The seed must be a whole number, 0 or more (or leave it empty).");
        return;
      }
      body.seed = seed;
      body.practice = true;
    }
    $("create").disabled = true;
    try {
      const response = await fetch("/api/tables", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        fail(answer.error || `The server answered ${response.status}.`);
        return;
      }
      if (name && creator >= 0) {
        try {
          localStorage.setItem(NAME_KEY, name);
        } catch {
          // storage refused: the name is not offered next time
        }
      }
      showLinks(answer);
    } catch (error) {
      fail(`Cannot reach the server: ${error.message}`);
    } finally {
      $("create").disabled = false;
    }
  }

  function fail(message) {
    $("create-error").replaceChildren(el("div", { class: "banner banner-error", role: "alert", text: message }));
  }

  function linkRow(label, path, extraClass) {
    const url = new URL(path, location.origin).href;
    const input = el("input", { type: "text", readonly: true, value: url, class: extraClass });
    input.addEventListener("focus", () => input.select());
    const copy = el("button", { type: "button", class: "button secondary", text: "Copy" });
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        input.select();
        document.execCommand("copy");
      }
      copy.textContent = "Copied";
      setTimeout(() => { copy.textContent = "Copy"; }, 1500);
    });
    const open = el("a", { href: path, target: "_blank", rel: "noopener", class: "button-link", text: "Open" });
    return el("li", {}, label, input, copy, open);
  }

  function showLinks(answer) {
    const items = [];
    for (const seat of answer.seats) {
      if (seat.link) {
        const label = el("span", { class: "link-label" }, CityWatch.colourName(seat.colour),
          seat.name ? el("span", { class: "link-name", text: seat.name }) : null);
        items.push(linkRow(label, seat.link, "seat-link"));
      }
    }
    for (const seat of answer.seats.filter((s) => s.free)) {
      items.push(el("li", { class: "free-seat" },
        el("span", { class: "link-label" }, CityWatch.colourName(seat.colour)),
        el("span", { class: "note", text: "Free: listed among the open tables until someone takes it." })));
    }
    const bots = answer.seats.filter((s) => s.kind !== "human");
    items.push(linkRow(el("span", { text: "Spectator" }), answer.spectator, "spectator-link"));
    const list = $("links");
    list.replaceChildren(...items);
    $("practice-note").hidden = answer.practice !== true;
    const created = $("created");
    created.hidden = false;
    const note = created.querySelector(".bots-note") || el("p", { class: "note bots-note" });
    note.textContent = bots.length
      ? `Bots: ${bots.map((s) => `${s.colour} (${s.kind})`).join(", ")}. They move on the server.`
      : "";
    list.after(note);
    if (!answer.seats.some((s) => s.link)) {
      note.textContent += " No seat is a person: watch the bots through the spectator link.";
    }
    created.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  // ---- issue 31: open tables ----
  const OPEN_POLL_MS = 4000;
  let shownOpen = ""; // the list last drawn, as JSON: redrawn only when it changes

  /** "waiting 5 min" from an ISO 8601 time. */
  function waitingSince(iso) {
    const minutes = Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 60000));
    if (minutes < 1) return "waiting for less than a minute";
    if (minutes < 120) return `waiting ${minutes} min`;
    return `waiting ${Math.floor(minutes / 60)} h`;
  }

  function openRow(row) {
    const options = Object.entries(row.options || {}).map(([k, v]) =>
      `${k}: ${Array.isArray(v) ? v.join(", ") : v}`).join(" · ");
    const bots = row.bots.length
      ? `bots: ${row.bots.map((b) => CityWatch.botLabel(b)).join(", ")}` : "no bots";
    const take = el("button", { type: "button", class: "button take-seat", text: "Take a seat" });
    take.addEventListener("click", () => takeSeat(row.table, take));
    return el("li", { class: "open-table", "data-table": row.table },
      el("div", { class: "open-what" },
        el("strong", { class: "open-game", text: row.title }),
        el("span", { class: "open-seats", text: ` ${row.taken} of ${row.people} people · ${bots}` }),
        options ? el("div", { class: "note open-options", text: options }) : null,
        el("div", { class: "note" },
          el("span", { class: "open-clock",
            text: row.clock ? CityWatch.clockRuleText(row.clock) : "No clock" }), " · ",
          el("span", { class: "open-since", title: row.since, text: waitingSince(row.since) }))),
      take);
  }

  let openRows = []; // the open tables last read

  /** The open tables of the game chosen in "Show" (every game: all), with their count and
   * the games to choose from (those listed, by title). */
  function drawOpen() {
    const select = $("open-game");
    const chosen = select.value;
    const games = new Map(openRows.map((row) => [row.game, row.title]));
    select.replaceChildren(el("option", { value: "", text: "every game" }),
      ...[...games].sort((a, b) => a[1].localeCompare(b[1])).map(([game, title]) =>
        el("option", { value: game, text: title })));
    select.value = games.has(chosen) ? chosen : "";
    const shown = openRows.filter((row) => !select.value || row.game === select.value);
    $("open-tables").replaceChildren(...shown.map(openRow));
    $("open-filter").hidden = openRows.length < 2;
    $("open-count").textContent = select.value
      ? `${shown.length} of ${CityWatch.plural(openRows.length, "open table")}`
      : CityWatch.plural(openRows.length, "open table");
    $("open-empty").hidden = openRows.length > 0;
  }

  async function loadOpen() {
    try {
      const response = await fetch("/api/open-tables");
      if (response.status === 429) return; // asked too often: the next poll tries again
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      const rows = (await response.json()).tables;
      $("open-error").replaceChildren();
      const text = JSON.stringify(rows);
      if (text !== shownOpen) {
        shownOpen = text;
        openRows = rows;
        drawOpen();
      } else {
        for (const since of $("open-tables").querySelectorAll(".open-since")) {
          since.textContent = waitingSince(since.title);
        }
      }
    } catch (error) {
      $("open-error").replaceChildren(el("div", { class: "banner banner-error", role: "alert",
        text: `Cannot load the open tables: ${error.message}` }));
    }
  }

  async function takeSeat(table, button) {
    button.disabled = true;
    const body = {};
    const name = $("your-name").value.trim();
    if (name) body.name = name;
    try {
      const response = await fetch(`/api/open-tables/${encodeURIComponent(table)}/take`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        $("open-error").replaceChildren(el("div", { class: "banner banner-error", role: "alert",
          text: answer.error || `The server answered ${response.status}.` }));
        button.disabled = false;
        loadOpen();
        return;
      }
      location.assign(answer.link); // the seat's private link: keep it to come back
    } catch (error) {
      $("open-error").replaceChildren(el("div", { class: "banner banner-error", role: "alert",
        text: `Cannot reach the server: ${error.message}` }));
      button.disabled = false;
    }
  }

  loadOpen();
  setInterval(() => {
    if (document.visibilityState === "visible") loadOpen();
  }, OPEN_POLL_MS);

  $("new-table").addEventListener("submit", create);
  try {
    $("your-name").value = localStorage.getItem(NAME_KEY) || "";
  } catch {
    // storage refused: no default name
  }
  loadGames();
  $("hints").addEventListener("change", () => { hintsChosen = true; });
  $("clock-kind").addEventListener("change", showClock);
  $("open-game").addEventListener("change", drawOpen);
})();
