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
  // One screen from a sofa (table.html): the host's bar in the header row, the sheets on the
  // left, the goals, the newest lines of the log and the legend on the right; at the end, the
  // winners and scores first.
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

// The level of a Records bot added without one (a seat's `level` is null for it).
const DEFAULT_LEVEL = "normal";
// A bot at the game's default level is added without one (its seat's level stays null, as the
// protocol has it for the default); another level is asked for.
const levelBody = (level) => (level === DEFAULT_LEVEL ? undefined : { level });
$("#add-bot").addEventListener("click", () =>
  api("POST", `/api/rooms/${code}/bots`, levelBody($("#bot-level").value), hostToken).catch((e) => {
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
            onclick: (event) => {
              const button = event.currentTarget;
              button.disabled = true; // one request at a time (a second press answers the same)
              api("POST", `/api/rooms/${code}/again`, undefined, hostToken)
                .catch((e) => toast(e.message, "#host-error"))
                .finally(() => {
                  button.disabled = false;
                });
            },
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
  fitTable();
}

// ---- one screen: every sheet, the chips, the goals, the log and the legend with nothing to scroll
// On a landscape screen while the game runs (records.css, "One screen"), the table chooses how to
// lay itself out: the goals beside the sheets (with the log and the legend) or above them; the
// sheets' number of columns and shape; the largest font size of the sheets, then of the goals, the
// log and the legend, that fit. Measured rather than computed, since a name, a card or a language
// can be longer than another. Chosen again when the screen, the seats or the host's controls
// change, or when something no longer fits: a state that fits keeps the layout, so the sheets do
// not change size from move to move.
const LANDSCAPE = matchMedia("(min-width: 900px) and (min-aspect-ratio: 1/1)");
// The font sizes tried, in rem (16 px at 1280x720 and 1280x800, 24 px at 1920x1080). The largest
// is the table's own size, as with few players; the smallest keeps a sheet readable from a sofa
// (12 px at 1280x720: a 6-player table there needs about 12.5); below it the page scrolls.
const FIT = { board: [0.75, 1], side: [0.8, 1] };
// A sheet's shape: its crew above its areas' lines, in one column ("list") or two ("stack"), or
// beside them ("side"); a free crew slot's role beside its bonus ("row") or above it ("column",
// narrower).
const SHAPES = ["side", "list", "stack"].flatMap((s) => [`${s} row`, `${s} column`]);
let fitted = ""; // what the layout was chosen for (and whether one fitted)

const overflows = (box) =>
  box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1;
const pageScrolls = () =>
  document.documentElement.scrollHeight > innerHeight + 1 ||
  document.documentElement.scrollWidth > innerWidth + 1;

// What must not stick out of its place on a sheet: its header, the host's controls, a crew slot,
// an area's line and what that line has.
const SHEET_PARTS = ".player-board header, .seat-controls, .tb-slot, .tb-area, .tb-what";
// Room for a seat's status beside its name, in its own em ("choosing…", "done ✓"; a card's title
// may be cut short). records.css gives it this room whatever the name.
const STATUS_ROOM = 7;
// Room for a seat's name in its header, in its own em: about twelve letters. A longer name is cut
// short there (an ellipsis; the whole name in its title), so that a name never makes the sheets
// smaller, nor chooses their shape: the sheet's own lines and slots do.
const NAME_ROOM = 8;

const em = (node) => parseFloat(getComputedStyle(node).fontSize);

/** Whether every part of each sheet stays within its place on the sheet: a name shows at least its
 * room (or whole), a status its room. */
function partsFit() {
  const boards = $("#table-boards");
  for (const node of boards.querySelectorAll(SHEET_PARTS))
    if (node.scrollWidth > node.clientWidth + 1) return false;
  for (const node of boards.querySelectorAll(".board-status"))
    if (node.clientWidth + 1 < STATUS_ROOM * em(node)) return false; // a width is rounded
  for (const node of boards.querySelectorAll(".board-name"))
    if (node.clientWidth + 1 < Math.min(node.scrollWidth, NAME_ROOM * em(node))) return false;
  return true;
}

/** Whether the sheets stay within their place, each part within its sheet. */
function boardsFit() {
  if (pageScrolls() || overflows($("#table-boards"))) return false;
  return partsFit();
}

/** How wide a row of boxes (a flex line, or a line of a grid) needs to be: each child at the width
 * of its content (a status at its room, a name at most at its room), and the gaps between them. */
function needs(children, gap) {
  let width = gap * Math.max(0, children.length - 1);
  for (const child of children) {
    const content = Math.max(child.offsetWidth, child.scrollWidth);
    if (child.classList.contains("board-status")) width += STATUS_ROOM * em(child);
    else if (child.classList.contains("board-name"))
      width += Math.min(content, NAME_ROOM * em(child));
    else width += content;
  }
  return width;
}

/** From one layout of the sheets at `size` px: the largest size at which every row of a sheet
 * would fit its width, and the height of the sheets now. A sheet's every measure grows with its
 * font size; the width of its place does not. */
function measureBoards(size) {
  const boards = $("#table-boards");
  let width = Number.POSITIVE_INFINITY;
  const fit = (room, need) => {
    if (need > 0) width = Math.min(width, (size * room) / need);
  };
  const gap = (node) => parseFloat(getComputedStyle(node).columnGap) || 0;
  for (const row of boards.querySelectorAll(".player-board header, .seat-controls, .tb-area"))
    fit(row.clientWidth, needs([...row.children], gap(row)));
  for (const slot of boards.querySelectorAll(".tb-slot")) fit(slot.clientWidth, slot.scrollWidth);
  for (const lines of boards.querySelectorAll(".tb-areas")) {
    const rows = new Map(); // the lines side by side (a grid's row), by where they start
    for (const line of lines.children)
      rows.set(line.offsetTop, [...(rows.get(line.offsetTop) || []), line]);
    for (const row of rows.values()) fit(lines.clientWidth, needs(row, gap(lines)));
  }
  const top = boards.getBoundingClientRect().top;
  const bottoms = [...boards.children].map((board) => board.getBoundingClientRect().bottom);
  return { width, height: Math.max(top, ...bottoms) - top };
}

/** Whether the goals, the log and the legend stay within the screen, none over another, the log
 * showing its two newest lines whole and its fold ("the whole game"). */
function sideFits() {
  const bottom = $(".table-play").getBoundingClientRect().bottom + 1;
  const below = (node) => !node || node.getBoundingClientRect().bottom <= bottom;
  for (const box of ["#table-goals", "#table-log", "#table-legend"].map((id) => $(id)))
    if (!box || box.scrollWidth > box.clientWidth + 1 || !below(box)) return false;
  // The log keeps its least height (records.css) by running over the legend when the goals leave
  // it too little room: that does not fit either.
  const [log, legend] = ["#table-log", "#table-legend"].map((id) => $(id).getBoundingClientRect());
  if (log.bottom > legend.top + 1) return false;
  const recent = $("#table-log .log-recent");
  const shown = Math.min(bottom, recent?.getBoundingClientRect().bottom ?? 0);
  const lines = [...(recent?.children || [])].slice(0, 2);
  return (
    lines.every((line) => line.getBoundingClientRect().bottom <= shown + 1) &&
    below($("#table-log .log-all summary"))
  );
}

/** The largest size in [low, high] px, in quarter pixels, for which fits() holds once apply(size)
 * is done (it is taken to hold below a size that fits); null when low does not fit. */
function largest(apply, fits, low, high) {
  let [lo, hi] = [Math.ceil(low * 4), Math.floor(high * 4)];
  if (lo > hi) return null;
  apply(lo / 4);
  if (!fits()) return null;
  apply(hi / 4);
  if (fits()) return hi / 4;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    apply(mid / 4);
    if (fits()) lo = mid;
    else hi = mid;
  }
  return lo / 4;
}

const setSideFont = (size) => $(".table-side").style.setProperty("--side-font", `${size}px`);

function setBoards({ cols, shape, size }) {
  const boards = $("#table-boards");
  boards.style.setProperty("--cols", String(cols));
  [boards.dataset.shape, boards.dataset.slots] = shape.split(" ");
  boards.style.setProperty("--board-font", `${size}px`);
}

/** Lays the table out as a tried layout says: where the goals go, the side's size, the sheets'
 * grid, shape and size. */
function layOut({ goals, side, ...sheets }) {
  $("#play").dataset.goals = goals;
  setSideFont(side);
  setBoards(sheets);
}

// The least room a sheet of a shape needs at the smallest size, in em (width, height): fewer
// layouts are tried (each costs a layout of the whole page).
const LEAST = { list: [13, 24], stack: [17, 19], side: [24, 17] };

function fitTable(force = false) {
  const play = $("#play");
  const boards = $("#table-boards");
  const on = !play.hidden && LANDSCAPE.matches && document.body.dataset.phase !== "over";
  play.classList.toggle("fit", on);
  fitWaiting(on); // whom the table waits for, in the words that fit the chips' line
  if (!on) {
    play.classList.remove("crowded");
    for (const name of ["--board-font", "--cols"]) boards.style.removeProperty(name);
    $(".table-side").style.removeProperty("--side-font");
    for (const node of [play, boards])
      for (const key of ["goals", "shape", "slots"]) delete node.dataset[key];
    fitted = "";
    return;
  }
  const count = Number(boards.dataset.count) || 1;
  const key = `${innerWidth}x${innerHeight} ${count} ${boards.querySelectorAll(".seat-controls").length}`;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const [sideLow, sideHigh] = FIT.side.map((r) => r * rem);
  const [low, high] = FIT.board.map((r) => r * rem);
  if (!force && fitted === `${key} and nothing fits`) return; // not again at every move
  if (!force && fitted === key && boardsFit()) {
    if (sideFits()) return;
    if (play.dataset.goals === "side") {
      // Only the side has grown (a goal's longer words): its size alone, the sheets stay.
      const size = largest(setSideFont, sideFits, sideLow, sideHigh);
      setSideFont(size ?? sideLow);
      if (size !== null && boardsFit()) return;
    }
  }
  fitted = key;
  play.classList.remove("crowded"); // every layout is tried on one screen's height
  // The goals beside the sheets or above them: the side's size, and the sheets' room, for each.
  setBoards({ cols: Math.min(count, 3), shape: SHAPES[0], size: low });
  const places = ["side", "top"].map((goals) => {
    play.dataset.goals = goals;
    const side = largest(setSideFont, sideFits, sideLow, sideHigh) ?? sideLow;
    setSideFont(side);
    return { goals, side, room: boards.clientHeight };
  });
  // Every grid of one to three rows and every shape, each laid out once at the largest size:
  // how large it can be in each place. A grid or shape that cannot fit at the smallest is skipped.
  const gap = 0.8 * low; // between the sheets (records.css)
  const most = Math.max(...places.map((place) => place.room));
  const tries = [];
  for (const rows of [1, 2, 3]) {
    const cols = Math.ceil(count / rows);
    if (rows > 1 && Math.ceil(count / (rows - 1)) === cols) continue; // the same grid
    const cell = (boards.clientWidth - (cols - 1) * gap) / cols;
    for (const shape of SHAPES) {
      const [width, height] = LEAST[shape.split(" ")[0]];
      if (cell < width * low || rows * height * low > most) continue;
      setBoards({ cols, shape, size: high });
      const measured = measureBoards(high);
      for (const place of places) {
        const size = Math.min(high, measured.width, (high * place.room) / measured.height);
        tries.push({ ...place, cols, shape, size: Math.floor(size * 4) / 4 });
      }
    }
  }
  // The best first: the one whose smaller text is the larger (as a part of its largest size),
  // then whose sheets are the larger. Each is laid out at its size, up to a pixel larger while it
  // fits (a measure is rounded, a border is not in em), smaller until it fits; the first that fits
  // at least as well as the next could (a pixel larger) wins.
  const score = (t) => Math.min(t.size / high, t.side / sideHigh) * 1000 + t.size / high;
  const hope = (t) => score({ ...t, size: Math.min(high, t.size + 1) });
  tries.sort((a, b) => score(b) - score(a));
  let best = null;
  for (const t of tries) {
    if (best && hope(t) <= score(best)) break;
    if (t.size + 1 < low) continue;
    layOut(t);
    const apply = (size) => setBoards({ ...t, size });
    const from = Math.max(low, t.size);
    const size =
      largest(apply, boardsFit, from, Math.min(high, t.size + 1)) ??
      largest(apply, boardsFit, low, from - 0.25);
    if (size !== null && (!best || score({ ...t, size }) > score(best))) best = { ...t, size };
  }
  // Nothing fits (a small screen, many players): the smallest sizes, and the page scrolls; the
  // sheets in the best of the layouts tried whose every part still fits its sheet at that size,
  // else in the narrowest shape (never a wide one squeezed into a narrow cell).
  const crowded = !best;
  if (!best) {
    fitted = `${key} and nothing fits`;
    best = tries
      .map((t) => ({ ...t, size: low }))
      .find((t) => {
        layOut(t);
        return partsFit();
      });
  }
  layOut(best || { ...places[0], cols: Math.min(count, 3), shape: "list column", size: low });
  // Where nothing fits, the page grows past the screen rather than the log and the legend
  // sharing a place in the side column.
  play.classList.toggle("crowded", crowded);
}

let resized = 0;
addEventListener("resize", () => {
  clearTimeout(resized); // once the window is still: a layout is tried many times over
  resized = setTimeout(() => fitTable(), 150);
});
document.fonts?.ready.then(() => fitTable(true));

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
        ` ${seat.name}${seat.bot ? `${t("rec.table.seat_bot")} · ${t(`common.level.${seat.level || DEFAULT_LEVEL}`)}` : ""}${seat.connected ? "" : t("rec.table.seat_away")} `,
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
  waitingChips = [];
  if (waiting.length) bits.push(waitingChip("waiting-chip", "rec.table.still_choosing", waiting));
  if (marking.length)
    bits.push(waitingChip("waiting-chip marking-chip", "rec.table.still_marking", marking));
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

// ---- who the table waits for, every name whole
// On one screen the chips keep to one line (records.css), so a waiting chip says what fits its
// room, the first of: everyone it waits for by name, its print down to 0.75 of the table's size (a
// sheet's names are never smaller), on one line or on two where the head is tall enough for them
// (the head keeps its height, so the sheets keep theirs); the first names that fit and how many
// others ("Still marking: Ann, Bo and 3 others"); how many ("Still marking: 5 players"). A name is
// never cut: each sheet says "choosing…" or "marking…" too, and the chip's tooltip has every name.
const CHIP_SIZES = [0.9, 0.85, 0.8, 0.75]; // rem: the chips' own size (records.css), then smaller
let waitingChips = []; // [{chip, key, list}]: the waiting chips on screen and whom they name

// A name in the chip's words is marked with these private-use characters (which no message has),
// then drawn as one unbreakable piece: two lines break between names, never inside one.
const NAMED = /(\uE002[^\uE003]*\uE003)/;

function waitingChip(className, key, list) {
  const chip = el("span", { class: `chip ${className}` });
  showWords(chip, waitingWords(key, list, list.length));
  waitingChips.push({ chip, key, list });
  return chip;
}

/** The chip's words naming the first `shown` of `list` (all, some and how many others, or none
 * and how many), each name marked. */
function waitingWords(key, list, shown) {
  const marked = list.map((name) => `\uE002${name}\uE003`);
  const others = list.length - shown;
  let who = names(marked);
  if (shown === 0) who = t("rec.table.players", { count: list.length });
  else if (others > 0) {
    const first = marked.slice(0, shown).join(t("common.list_sep"));
    who = t("rec.table.and_others", { first, count: others });
  }
  return t(key, { names: who });
}

/** Puts `words` into `chip`, each marked name in a piece of its own. */
function showWords(chip, words) {
  chip.replaceChildren(
    ...words
      .split(NAMED)
      .filter(Boolean)
      .map((part) =>
        NAMED.test(part) ? el("span", { class: "chip-name" }, part.slice(1, -1)) : part,
      ),
  );
}

/** Each waiting chip in the words and size that fit its room on one screen (`fit`), or naming
 * everyone in the chips' own size (the chips wrap). */
function fitWaiting(fit) {
  const head = $(".table-head");
  for (const { chip, key, list } of waitingChips) {
    chip.style.removeProperty("font-size");
    chip.classList.remove("two-lines");
    chip.removeAttribute("title");
    showWords(chip, waitingWords(key, list, list.length));
    if (!fit) continue;
    const everyone = chip.textContent;
    const height = head.getBoundingClientRect().height; // with the chip on one line
    const fits = () =>
      chip.scrollWidth <= chip.clientWidth &&
      chip.scrollHeight <= chip.clientHeight &&
      head.getBoundingClientRect().height <= height + 0.5;
    for (let shown = list.length; shown >= 0; shown -= 1) {
      showWords(chip, waitingWords(key, list, shown));
      if (fitsChip(chip, fits, 1) || fitsChip(chip, fits, 2)) break;
    }
    if (chip.textContent !== everyone) chip.title = everyone;
  }
}

/** Whether `chip` holds its words whole on `lines` lines at one of CHIP_SIZES (left at the largest
 * that does; else on one line at the smallest). */
function fitsChip(chip, fits, lines) {
  const [largest] = CHIP_SIZES;
  chip.classList.remove("two-lines");
  chip.style.fontSize = `${largest}rem`;
  // The words' width goes with the size, the chip's room and padding do not: a size at which they
  // are too wide for the lines is not tried (each try lays the page out again).
  const pad = 2 * parseFloat(getComputedStyle(chip).paddingLeft);
  const [wide, room] = [chip.scrollWidth - pad, chip.clientWidth - pad];
  chip.classList.toggle("two-lines", lines === 2);
  for (const size of CHIP_SIZES) {
    if ((wide * size) / largest > room * lines * 1.02) continue;
    chip.style.fontSize = `${size}rem`;
    if (fits()) return true;
  }
  chip.classList.remove("two-lines");
  chip.style.fontSize = `${CHIP_SIZES.at(-1)}rem`;
  return false;
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
            { class: "board-name", title: seat.name },
            seat.name,
            seat.bot
              ? el(
                  "small",
                  { class: "muted" },
                  t("rec.table.bot"),
                  seat.level
                    ? el("span", { class: "board-level" }, ` · ${t(`common.level.${seat.level}`)}`)
                    : null,
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

// The levels this server offers a Records bot (`learned` too when it has a trained policy), in
// the lobby's choice for the next bot (normal first chosen) and each bot seat's in play.
let levels = ["easy", "normal", "hard"];
function offerLevels() {
  const choice = $("#bot-level");
  const chosen = choice.value || DEFAULT_LEVEL;
  choice.replaceChildren(...levels.map((l) => el("option", { value: l }, t(`common.level.${l}`))));
  choice.value = levels.includes(chosen) ? chosen : DEFAULT_LEVEL;
}
offerLevels();
api("GET", "/api/games")
  .then((games) => {
    const records = games.find((g) => g.name === "records");
    if (records?.levels?.length) levels = records.levels;
    offerLevels();
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
        { value: l, selected: (seat.level || DEFAULT_LEVEL) === l ? "" : null },
        t(`common.level.${l}`),
      ),
    ),
  );
  level.value = seat.level || DEFAULT_LEVEL;
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
