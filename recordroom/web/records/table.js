// The Records table screen: open a room (or start a solo game on this screen), seat the players,
// then show every sheet in small with its score, the public goals, the week, the pass direction,
// the deck and who is still choosing; at the end, the scores by area and the replay.
// Without the host token it is a spectator's screen: the same, minus the host's buttons.

import {
  $,
  api,
  el,
  initials,
  morph,
  normaliseCode,
  RoomSocket,
  seatColour,
  toast,
  tokens,
} from "/static/common/client.js";
import { t } from "/static/common/i18n.js";
import { takeSeat } from "/static/common/phone.js";
import { qrSvg } from "/static/common/qr.js";
import { tableBoard } from "./board.js";
import { goalCard, goalProgress } from "./cards.js";
import { replayViewer, resultTable } from "./end.js";
import { logBox } from "./log.js";
import { legend } from "./sheet.js";
import { cardWords, colourName, colourOf, loadEdition, names, soloEdition } from "./words.js";

const params = new URLSearchParams(location.search);
let code = normaliseCode(params.get("room"));
const hostToken = code ? tokens.host(code) : null;
let live = null;
let ed = null;
let overShown = false;
let roomInfo = null; // GET /api/rooms/{code}: the join address the phones use

const show = (id) => {
  for (const s of ["setup", "lobby", "play"]) $(`#${s}`).hidden = s !== id;
};

async function createRoom() {
  const room = await api("POST", "/api/rooms", { game: "records", options: {} });
  tokens.setHost(room.code, room.host_token);
  return room;
}

$("#open-room").addEventListener("click", async () => {
  try {
    const room = await createRoom();
    location.href = `/table?room=${room.code}`;
  } catch (error) {
    toast(error.message, "#setup-error");
  }
});

$("#solo-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("#solo-start").disabled = true;
  try {
    const name = $("#solo-name").value.trim();
    const room = await createRoom();
    await takeSeat(room.code, name, { reuse: false });
    await api("POST", `/api/rooms/${room.code}/start`, undefined, room.host_token);
    location.href = `/join/${room.code}`;
  } catch (error) {
    toast(error.message, "#setup-error");
    $("#solo-start").disabled = false;
  }
});

async function enter() {
  // One screen from a sofa: the host's bar in the header row, the sheets under the goals, the
  // newest lines of the log below them (still on screen at 1280x800), the legend last.
  $("#table-boards").after($("#table-log"));
  $(".table-head").append($("#host-bar"));
  $(".table-head").after($("#table-over")); // at the end, the winners and scores come first
  ed = await loadEdition();
  $("#host-tools").hidden = !hostToken;
  live = new RoomSocket(code, hostToken, {
    onState: render,
    onError: (m) => {
      toast(m.message, "#lobby-error");
    },
    onAgain: (newCode) => {
      if (hostToken) tokens.setHost(newCode, hostToken);
      code = newCode;
      history.replaceState(null, "", `/table?room=${code}`);
      live.moveTo(code);
    },
    onClosed: () => {
      show("setup");
      toast(t("dc.phone.gone", { code }), "#setup-error");
    },
  });
  api("GET", `/api/rooms/${code}`)
    .then((info) => {
      roomInfo = info;
      $("#join-url").textContent = info.join_url;
      $("#qr").src = `/api/rooms/${code}/qr.svg`;
    })
    .catch(() => {});
}

$("#add-bot").addEventListener("click", () =>
  api("POST", `/api/rooms/${code}/bots`, undefined, hostToken).catch((e) => {
    toast(e.message, "#lobby-error");
  }),
);
$("#start").addEventListener("click", () =>
  api("POST", `/api/rooms/${code}/start`, undefined, hostToken).catch((e) => {
    toast(e.message, "#lobby-error");
  }),
);

// "phone away N s" counts up here between states: the server sends `away` once per state, and
// no state may come for a while (everyone waits for the phone that is away).
let stateAt = performance.now(); // when the newest state came
const awayText = (away) =>
  t("rec.table.away", { seconds: Math.round(away + (performance.now() - stateAt) / 1000) });
setInterval(() => {
  for (const node of document.querySelectorAll("[data-away]"))
    node.textContent = awayText(Number(node.dataset.away));
}, 1000);

function render(state) {
  stateAt = performance.now();
  document.body.dataset.version = String(state.version);
  document.body.dataset.phase = state.view?.phase || state.status;
  if (state.status === "lobby" || !state.view) return renderLobby(state);
  show("play");
  $("#play-code").textContent = code;
  const view = state.view;
  if (view.players === 1) ed = soloEdition(ed, view.goal_scale);
  renderRound(state);
  renderGoals(state);
  $("#table-goals").hidden = state.status === "over"; // no goal is left to claim
  renderBoards(state);
  $("#table-log").replaceChildren(logBox(ed, view.events || [], state.seats, { newest: 3 }));
  renderHostBar(state);
  const over = $("#table-over");
  if (state.status === "over" && state.result) {
    over.hidden = false;
    if (!overShown) {
      overShown = true;
      over.replaceChildren(
        resultTable(ed, state),
        replayViewer(ed, code, state.seats, { board: tableBoard }),
      );
    }
    if (hostToken && !$("#play-again")) {
      over.prepend(
        el(
          "button",
          {
            type: "button",
            id: "play-again",
            onclick: () =>
              api("POST", `/api/rooms/${code}/again`, undefined, hostToken).catch((e) => {
                toast(e.message, "#host-error");
              }),
          },
          t("rec.table.play_again"),
        ),
      );
    }
  } else {
    over.hidden = true;
    overShown = false;
  }
  document.title =
    view.phase === "over"
      ? t("rec.table.doc_over")
      : view.players > 1
        ? t("rec.table.doc_week", { week: view.week })
        : t("rec.table.doc_turn", { turn: view.turn });
}

function renderLobby(state) {
  show("lobby");
  $("#lobby-code").textContent = code;
  $("#seats").replaceChildren(
    ...state.seats.map((seat) =>
      el(
        "li",
        { class: seat.connected ? "" : "away" },
        el(
          "span",
          { class: "disc tiny", style: { "--c": seatColour(seat.seat) } },
          el("span", {}, initials(seat.name)),
        ),
        ` ${seat.name}${seat.bot ? t("rec.table.seat_bot") : ""}${seat.connected ? "" : t("rec.table.seat_away")} `,
        hostToken
          ? el(
              "button",
              {
                type: "button",
                class: "quiet small",
                "aria-label": t("dc.lobby.remove", { name: seat.name }),
                onclick: () =>
                  api("DELETE", `/api/rooms/${code}/seats/${seat.seat}`, undefined, hostToken),
              },
              "✕",
            )
          : null,
      ),
    ),
  );
  if (!state.seats.length) $("#seats").append(el("li", { class: "muted" }, t("rec.table.nobody")));
  $("#start").disabled = state.seats.length < 1;
}

const PHASES = Object.fromEntries(
  ["lead_singer", "keep", "pick", "mark", "claim", "private", "turn", "third", "goal", "over"].map(
    (phase) => [phase, t(`rec.phase.${phase}`)],
  ),
);

function renderRound(state) {
  const view = state.view;
  const waiting = (view.waiting || []).map((s) => state.seats[s]?.name);
  const marking = (view.marking || []).map((s) => state.seats[s]?.name);
  const bits = [];
  if (view.players > 1) {
    bits.push(
      el(
        "span",
        { class: "chip" },
        view.week ? t("rec.table.week", { week: view.week }) : t("rec.table.setup"),
      ),
    );
    if (
      view.week &&
      (view.phase === "pick" ||
        (view.phase === "mark" && !view.current_goal && view.revealed.some(Boolean)))
    )
      bits.push(
        el(
          "span",
          { class: "chip" },
          t("rec.table.pick_of", { round: view.round, picks: ed.picks_per_week }),
        ),
      );
    bits.push(
      el(
        "span",
        { class: "chip direction-chip" },
        view.direction === "clockwise" ? t("rec.table.clockwise") : t("rec.table.counter"),
      ),
    );
  } else {
    bits.push(el("span", { class: "chip" }, t("rec.table.solo_turn", { turn: view.turn })));
    if (view.option)
      bits.push(el("span", { class: "chip" }, t("rec.table.option", { option: view.option })));
  }
  bits.push(el("span", { class: "chip" }, t("rec.table.deck", { count: view.deck })));
  bits.push(el("span", { class: "chip phase-chip" }, PHASES[view.phase] || view.phase));
  if (waiting.length)
    bits.push(
      el(
        "span",
        { class: "chip waiting-chip" },
        t("rec.table.still_choosing", { names: names(waiting) }),
      ),
    );
  if (marking.length)
    bits.push(
      el(
        "span",
        { class: "chip waiting-chip marking-chip" },
        t("rec.table.still_marking", { names: names(marking) }),
      ),
    );
  if (state.timer)
    bits.push(
      el(
        "span",
        { class: "chip timer-chip", "data-remaining": String(state.timer.remaining) },
        `◷ ${t("common.seconds", { count: Math.ceil(state.timer.remaining) })}`,
      ),
    );
  if (view.ending && view.phase !== "over")
    bits.push(el("span", { class: "chip ending-chip" }, t("rec.table.last_week")));
  $("#round-info").replaceChildren(...bits);
}

function renderGoals(state) {
  const view = state.view;
  const solo = view.players === 1;
  $("#table-goals").replaceChildren(
    el("h2", {}, solo ? t("rec.table.goal_row") : t("rec.table.goals")),
    el(
      "div",
      { class: "goal-row" },
      view.public_goals.map((id, i) => {
        if (!id) return el("div", { class: "goal-card empty" }, "—");
        const card = goalCard(ed, id, solo ? goalProgress(view, 0, id) : null, {
          current: id === view.current_goal,
          slot: solo ? i + 1 : null,
          leaving: solo && i === view.public_goals.length - 1,
        });
        if (!solo) {
          const meets = state.seats.filter((seat) => goalProgress(view, seat.seat, id)?.claimable);
          card.append(
            el(
              "span",
              { class: "goal-meets" },
              meets.length
                ? [
                    t("rec.table.can_claim"),
                    ...meets.map((seat) =>
                      el(
                        "span",
                        {
                          class: "disc tiny",
                          title: seat.name,
                          style: { "--c": seatColour(seat.seat) },
                        },
                        el("span", {}, initials(seat.name)),
                      ),
                    ),
                  ]
                : t("rec.table.nobody_meets"),
            ),
          );
        }
        return card;
      }),
    ),
  );
}

function renderBoards(state) {
  const view = state.view;
  const marking = Array.isArray(view.marking);
  const waiting = new Set(marking ? view.marking : view.waiting || []);
  const choosing = view.waiting !== null || marking;
  const count = view.players;
  $("#table-boards").dataset.count = String(count);
  // Kept across states (morph): the host's controls of a seat (a level being chosen, a button
  // being clicked) must not be replaced by the next move of a bot.
  morph(
    $("#table-boards"),
    ...state.seats.map((seat) => {
      const board = view.boards[seat.seat];
      const revealed = view.revealed?.[seat.seat];
      let status = "";
      if (marking)
        status = `${revealed ? `${cardWords(ed, revealed).title} · ` : ""}${waiting.has(seat.seat) ? t("rec.table.marking") : t("rec.table.done")}`;
      else if (choosing)
        status = waiting.has(seat.seat) ? t("rec.table.choosing") : t("rec.table.chosen");
      else if (view.phase === "mark" && revealed)
        status = t("rec.table.plays", { card: cardWords(ed, revealed).title });
      const away = seat.away !== null && seat.away !== undefined;
      if (away && status) status = `${status} · `;
      return el(
        "article",
        {
          class: `player-board${waiting.has(seat.seat) ? " waiting" : ""}`,
          "data-seat": seat.seat,
        },
        el(
          "header",
          {},
          el(
            "span",
            {
              class: "disc tiny",
              "data-seat-colour": seatColour(seat.seat),
              title: board.lead_singer
                ? t("rec.table.lead", { colour: colourName(board.lead_singer) })
                : null,
              style: {
                "--c": seatColour(seat.seat),
                "box-shadow": board.lead_singer ? `0 0 0 3px ${colourOf(board.lead_singer)}` : null,
              },
            },
            el("span", {}, initials(seat.name)),
          ),
          el(
            "b",
            { class: "board-name" },
            seat.name,
            seat.bot
              ? el(
                  "small",
                  { class: "muted" },
                  `${t("rec.table.bot")}${seat.level ? ` · ${t(`common.level.${seat.level}`)}` : ""}`,
                )
              : null,
          ),
          el(
            "span",
            { class: "board-status" },
            status,
            away
              ? el(
                  "span",
                  { class: "away-time", "data-away": String(seat.away) },
                  awayText(seat.away),
                )
              : null,
          ),
          el("b", { class: "board-score" }, `${board.score}`, el("small", {}, t("rec.table.pts"))),
        ),
        seatControls(state, seat),
        tableBoard(ed, board, { label: t("rec.table.sheet_of", { name: seat.name }) }),
      );
    }),
  );
  if (!$("#table-legend")) $("#table-log").after(el("div", { id: "table-legend" }, legend()));
}

// ---- the host's controls in play: seats to bots and back, a new phone, levels, the timer --------

// The levels this server offers a Records bot (`learned` too when it has a trained policy).
let levels = ["easy", "normal", "hard"];
api("GET", "/api/games")
  .then((games) => {
    const records = games.find((g) => g.name === "records");
    if (records?.levels?.length) levels = records.levels;
  })
  .catch(() => {});

function seatControls(state, seat) {
  if (!hostToken || state.status !== "playing") return null;
  const path = `/api/rooms/${code}/seats/${seat.seat}/bot`;
  const fail = (e) => {
    toast(e.message, "#host-error");
  };
  const level = el(
    "select",
    {
      "aria-label": t("rec.table.bot_level", { name: seat.name }),
      "data-level-seat": String(seat.seat),
      onchange: (event) => api("POST", path, { level: event.target.value }, hostToken).catch(fail),
    },
    levels.map((l) =>
      el(
        "option",
        { value: l, selected: (seat.level || "normal") === l ? "" : null },
        t(`common.level.${l}`),
      ),
    ),
  );
  level.value = seat.level || "normal";
  return el(
    "div",
    { class: "seat-controls" },
    seat.bot
      ? level
      : el(
          "button",
          {
            type: "button",
            class: "quiet small",
            "data-hand-bot": String(seat.seat),
            onclick: () => api("POST", path, {}, hostToken).catch(fail),
          },
          t("rec.table.hand_bot"),
        ),
    el(
      "button",
      {
        type: "button",
        class: "quiet small",
        "data-new-phone": String(seat.seat),
        // The seat's phone is let go at once: one mis-click must not throw a player out.
        onclick: () =>
          askNewPhone(seat, async () => {
            try {
              const answer = await api("DELETE", path, { name: seat.name }, hostToken);
              showSeatLink(seat, answer.token);
            } catch (e) {
              $("#seat-link").replaceChildren();
              fail(e);
            }
          }),
      },
      t("rec.table.new_phone"),
    ),
  );
}

/** "Give Bo's seat to a new phone?" in the box where the link will show: yes, or keep it. */
function askNewPhone(seat, give) {
  const keep = el(
    "button",
    { type: "button", class: "quiet small", onclick: () => $("#seat-link").replaceChildren() },
    t("rec.table.keep_phone"),
  );
  const card = el(
    "div",
    {
      class: "seat-link-card seat-confirm",
      role: "alertdialog",
      "aria-label": t("rec.table.new_phone"),
      "data-seat": String(seat.seat),
    },
    el("p", {}, t("rec.table.new_phone_q", { name: seat.name })),
    el(
      "div",
      { class: "confirm-buttons" },
      el(
        "button",
        {
          type: "button",
          class: "small",
          "data-confirm-new-phone": String(seat.seat),
          onclick: give,
        },
        t("rec.table.new_phone_yes"),
      ),
      keep,
    ),
  );
  $("#seat-link").replaceChildren(card);
  card.scrollIntoView({ block: "nearest" });
  keep.focus(); // Enter keeps the phone
}

/** The link and QR code that give a seat to a new phone (the link carries the seat's new token, so
 * the QR code is drawn here and never asked of the server); a tap on ✕ puts it away. */
function showSeatLink(seat, token) {
  const base = (roomInfo?.join_url || `${location.origin}/join/${code}`).replace(/\/join\/.*$/, "");
  const url = `${base}/join/${code}?seat_token=${encodeURIComponent(token)}`;
  const qr = el("div", {
    class: "seat-qr",
    role: "img",
    "aria-label": t("rec.table.qr_aria", { name: seat.name }),
  });
  qr.innerHTML = qrSvg(url);
  $("#seat-link").replaceChildren(
    el(
      "div",
      { class: "seat-link-card", "data-seat": String(seat.seat) },
      qr,
      el(
        "div",
        {},
        el("p", {}, t("rec.table.seat_link", { name: seat.name })),
        el("p", { class: "seat-link", "data-url": url }, url.replace(/^https?:\/\//, "")),
        el(
          "button",
          {
            type: "button",
            class: "quiet small",
            onclick: () => $("#seat-link").replaceChildren(),
          },
          t("common.close"),
        ),
      ),
    ),
  );
}

function renderHostBar(state) {
  const bar = $("#host-bar");
  if (!hostToken || state.status !== "playing") {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  const seconds = state.timer?.seconds ?? null;
  if (!bar.dataset.built) {
    bar.dataset.built = "1";
    bar.append(
      el(
        "label",
        {},
        `${t("rec.table.pick_timer")} `,
        el(
          "select",
          {
            id: "timer-select",
            "aria-label": t("rec.table.pick_timer"),
            onchange: (event) =>
              api(
                "POST",
                `/api/rooms/${code}/timer`,
                { seconds: Number(event.target.value) },
                hostToken,
              ).catch((e) => {
                toast(e.message, "#host-error");
              }),
          },
          [0, 15, 30, 60].map((s) =>
            el(
              "option",
              { value: String(s) },
              s ? t("common.seconds", { count: s }) : t("rec.table.timer_off"),
            ),
          ),
        ),
      ),
    );
  }
  if (seconds !== null && document.activeElement !== $("#timer-select"))
    $("#timer-select").value = String(seconds);
}

if (code) enter();
else show("setup");
