// citywatch: the start page. The games come from GET /api/games (each with its seat range
// and the server's bot levels); POST /api/tables, then one private link per person.
// A chosen seed makes a practice table ("practice": true): whoever knows the seed can know
// every hidden card, so the page says so next to the seed and every seat's page says so too.
// A game with options (each {name, help, default, min, max}, or {name, help, default,
// choices} for a choice) gets one number input or one pick each; those changed from their
// default are sent as "options".
// A game with decks ({option, starters: [{id, name, plan}]}) gets a deck pick per seat: a
// starter deck or an uploaded JSON deck list, sent as options[option], one per seat; the
// server checks every deck rule and answers 400 naming the rule broken.
// Issue 16: "Your name" names the first person's seat (the creator's), sent as "names" (one
// per seat, null for the others); it is remembered in localStorage as the default next time.
"use strict";

(() => {
  const { el } = CityWatch;
  const $ = (id) => document.getElementById(id);
  const BOT_LABELS = { easy: "easy", normal: "normal", hard: "hard", ismcts: "ISMCTS" };
  let games = []; // GET /api/games
  let game = null; // the chosen one
  // The seats chosen so far, kept when the number of players changes.
  let chosen = [];
  // The deck chosen per seat (a starter id, or UPLOAD) and the uploaded deck lists.
  const UPLOAD = "upload";
  let decks = [];
  let uploads = [];
  const NAME_KEY = "citywatch.name"; // localStorage: the name last given (also by table pages)

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
    const starters = game.decks ? game.decks.starters : [];
    decks = Array.from({ length: game.max_players },
      (_, i) => (starters.length ? starters[i % starters.length].id : ""));
    uploads = Array.from({ length: game.max_players }, () => null);
    drawSeats();
    drawOptions();
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
      select.addEventListener("change", () => { chosen[i] = select.value; });
      rows.push(el("label", { for: `seat-${i}`, text: `Seat ${i + 1}` }), select);
    }
    $("seats").replaceChildren(...rows);
    drawDecks();
  }

  /** A deck pick per seat for a game with decks: a starter deck or an upload (else hidden). */
  function drawDecks() {
    const rows = [];
    const starters = game && game.decks ? game.decks.starters : [];
    for (let i = 0; starters.length && i < players(); i++) {
      const select = el("select", { id: `deck-${i}`, "data-deck": i });
      for (const deck of starters) {
        select.append(el("option", { value: deck.id, selected: decks[i] === deck.id,
          text: deck.name, title: deck.plan || "" }));
      }
      select.append(el("option", { value: UPLOAD, selected: decks[i] === UPLOAD,
        text: "Upload a deck (JSON file)…" }));
      const file = el("input", { type: "file", id: `deck-file-${i}`, accept: ".json,application/json",
        "aria-label": `Seat ${i + 1}'s deck file` });
      // The file picker gets a line of its own under the seat's select, shown for an upload.
      const picker = el("span", { class: "deck-file" }, file);
      picker.hidden = decks[i] !== UPLOAD;
      select.addEventListener("change", () => {
        decks[i] = select.value;
        picker.hidden = select.value !== UPLOAD;
      });
      file.addEventListener("change", async () => {
        uploads[i] = null;
        const picked = file.files && file.files[0];
        if (!picked) return;
        try {
          uploads[i] = JSON.parse(await picked.text());
        } catch {
          uploads[i] = { error: `Seat ${i + 1}'s deck file ${picked.name} is not valid JSON.` };
        }
      });
      rows.push(el("label", { for: `deck-${i}`, text: `Seat ${i + 1}` }), select, picker);
    }
    $("decks").replaceChildren(...rows);
    $("decks-row").hidden = rows.length === 0;
  }

  /** The decks per seat to send, or a sentence saying which seat's upload is missing. */
  function chosenDecks() {
    const list = [];
    for (let i = 0; i < players(); i++) {
      if (decks[i] !== UPLOAD) {
        list.push(decks[i]);
      } else if (!uploads[i]) {
        return { error: `Choose seat ${i + 1}'s deck file, or a starter deck.` };
      } else if (uploads[i].error && Object.keys(uploads[i]).length === 1) {
        return { error: uploads[i].error };
      } else {
        list.push(uploads[i]);
      }
    }
    return { decks: list };
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
    const body = { game: game.name, seats };
    const picked = chosenOptions();
    if (picked.error) {
      fail(picked.error);
      return;
    }
    if (game.decks) {
      const pickedDecks = chosenDecks();
      if (pickedDecks.error) {
        fail(pickedDecks.error);
        return;
      }
      picked.options[game.decks.option] = pickedDecks.decks;
    }
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
    const bots = answer.seats.filter((s) => !s.link);
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

  $("new-table").addEventListener("submit", create);
  try {
    $("your-name").value = localStorage.getItem(NAME_KEY) || "";
  } catch {
    // storage refused: no default name
  }
  loadGames();
})();
