// citywatch: the start page. POST /api/tables, then one private link per person.
// A chosen seed makes a practice table ("practice": true): whoever knows the seed can know
// every hidden card, so the page says so next to the seed and every seat's page says so too.
"use strict";

(() => {
  const { el } = CW;
  const $ = (id) => document.getElementById(id);
  const COLOUR_NAMES = ["Red", "Blue", "Green", "Yellow"];
  const KINDS = [
    ["human", "Person (gets a link)"],
    ["random", "Bot: random"],
    ["heuristic", "Bot: heuristic"],
    ["ismcts", "Bot: ISMCTS"],
  ];
  // The seats chosen so far, kept when the number of players changes.
  const chosen = ["human", "heuristic", "heuristic", "heuristic"];

  function players() {
    return Number(document.querySelector('input[name="players"]:checked').value);
  }

  function drawSeats() {
    const rows = [];
    for (let i = 0; i < players(); i++) {
      const select = el("select", { id: `seat-${i}`, "data-seat": i });
      for (const [value, label] of KINDS) {
        select.append(el("option", { value, selected: chosen[i] === value, text: label }));
      }
      select.addEventListener("change", () => { chosen[i] = select.value; });
      rows.push(el("label", { for: `seat-${i}` }, CW.colourName(COLOUR_NAMES[i])), select);
    }
    $("seats").replaceChildren(...rows);
  }

  async function create(event) {
    event.preventDefault();
    $("create-error").replaceChildren();
    const seats = chosen.slice(0, players());
    const body = { game: "ankh-morpork", seats };
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
        items.push(linkRow(el("span", {}, CW.colourName(seat.colour)), seat.link, "seat-link"));
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

  for (const radio of document.querySelectorAll('input[name="players"]')) {
    radio.addEventListener("change", drawSeats);
  }
  $("new-table").addEventListener("submit", create);
  drawSeats();
})();
