// The table screen: set up the evening, let the players join, then show the four sleeves, play
// the song, reveal the votes together and grow the mosaic. It holds the host token of the room.
// Opened at /table?room=CODE without that token (a second screen, a friend's link) it is a
// spectator's screen: the same table, read-only and silent, since only the host's screen plays
// the music and opens the turns; a code no room holds says so instead of offering a new room.

import { morph } from "/static/common/client.js";
import { andList, has, lang, onLanguage, t } from "/static/common/i18n.js";
import { qrSvg } from "/static/common/qr.js";
import {
  $,
  $$,
  api,
  CLOSE,
  deadline,
  el,
  initials,
  ladderItems,
  nextTierLine,
  normaliseCode,
  RoomSocket,
  seatColour,
  secondsLeft,
  sleeveImage,
  tierLadder,
  toast,
  tokens,
  votesByCard,
} from "./common.js";
import { cue } from "./cues.js";

const params = new URLSearchParams(location.search);
const HOLD = Number(params.get("hold") || 5000); // how long a reveal stays on the table, in ms
const variantName = (variant) => t(`dc.variant.${variant}`);
const levelName = (level) => t(`common.level.${level || "normal"}`);
const tierName = (tier) => t(`dc.tier.${tier}`);
const tracks = (n) => t("dc.tracks", { count: n });
const points = (n) => t("common.points", { count: n });

let code = normaliseCode(params.get("room"));
let hostToken = code ? tokens.host(code) : null;
let watching = false; // a spectator's screen: no host token, no sound, no host controls
let live = null;
let last = null; // the newest state message
let previous = null; // the view before it
let reveal = null; // {record, until} while a finished turn is shown
let revealTimer = null;
let roomInfo = null;
let music = null; // the newest music message
let playing = { url: null, turn: null };
let queued = null; // a track waiting for the reveal or (party mode) for the song to end
let seenAnimation = new Set(); // keys of things already animated in
// The song opens the vote: the turn whose song the audio element has played (its `playing` event),
// when we last told the server a turn's song plays, and when we last asked it to hold the turn.
let heardTurn = null;
let told = { turn: null, at: 0 };
let held = { turn: null, at: 0 };
let timerUntil = null; // when the vote timer runs out (local clock), null when it does not run
let opensUntil = null; // when the current turn opens by itself
let awaySince = new Map(); // seat -> Date.now() when its phone dropped
const awayWaited = new Map(); // seat -> when the host chose "Wait" for it
const AWAY_AFTER = 10_000; // ms a phone may be gone during a vote before the table asks
const WAIT_AGAIN = 60_000; // after "Wait", ask again this much later
const HOLD_EVERY = 10_000; // party mode: how often the table asks the server to keep waiting

const audio = $("#audio");
const ICONS = {
  play: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 4l13 8-13 8z" fill="currentColor"/></svg>',
  pause:
    '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 4h4v16H6zM14 4h4v16h-4z" fill="currentColor"/></svg>',
  // A speaker struck through: this screen makes no sound.
  muted:
    '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/><path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2" stroke-linecap="round" fill="none"/></svg>',
};

// ---- setup ---------------------------------------------------------------------------------

let library = {
  sources: [{ id: "demo", name: t("dc.source.demo"), tracks: null, ready: false, themes: [] }],
  playlists: [],
};
let musicProblem = null; // why the chosen music cannot be played (from the server), or null
let checks = 0; // numbers the music checks, so a late answer never overwrites a newer one
let creating = false; // "Open the room" was pressed and its answer has not come yet
let shownThemes = null; // what the theme list shows now (a refresh that changes nothing keeps it)

async function loadMusic() {
  // Show the demo playlist and the external player at once. The first run of a server makes the
  // demo tracks in the background: its progress shows here, and the music folders can be used
  // meanwhile.
  showSources(false);
  try {
    library = await api("GET", "/api/music");
  } catch {
    /* an older server: the demo playlist only */
  }
  showSources(true);
  if (library.sources.some((s) => s.ready === false) && !$("#setup").hidden)
    setTimeout(loadMusic, 1000);
}

function showSources(loaded) {
  const chosen = $("input[name=source]:checked")?.value || "demo";
  const playlist = $("#playlist").value;
  $("#sources").toggleAttribute("data-loaded", loaded);
  $("#sources").setAttribute("aria-busy", String(!loaded));
  const note = (s) => {
    if (s.ready === false) {
      return s.error
        ? t("dc.source.failed", { error: s.error })
        : t("dc.source.making", { done: s.progress?.done ?? 0, total: s.progress?.total ?? "?" });
    }
    return typeof s.tracks === "number"
      ? tracks(s.tracks)
      : loaded
        ? t("dc.source.none")
        : t("dc.source.looking");
  };
  const sources = [
    ...library.sources.map((s) => ({
      id: s.id,
      name: sourceName(s),
      note: note(s),
      disabled: s.tracks === 0 || Boolean(s.error),
    })),
    {
      id: "playlist",
      name: t("dc.source.playlist"),
      note: library.playlists.length
        ? t("dc.source.found", { count: library.playlists.length })
        : loaded
          ? t("dc.source.none")
          : t("dc.source.looking"),
      disabled: !library.playlists.length,
    },
    { id: "external", name: t("dc.source.external"), note: t("dc.source.external.note") },
  ];
  $("#sources").replaceChildren(
    ...sources.map((s) =>
      el(
        "label",
        { class: "choice small" },
        el("input", {
          type: "radio",
          name: "source",
          value: s.id,
          checked: s.id === chosen,
          disabled: s.disabled,
          onchange: () => musicFormChanged(true),
        }),
        el("span", {}, el("b", {}, s.name), el("small", {}, s.note)),
      ),
    ),
  );
  $("#playlist").replaceChildren(
    ...library.playlists.map(
      (p) =>
        new Option(
          t("dc.playlist.option", { name: p.name, tracks: tracks(p.tracks) }),
          p.id,
          false,
          p.id === playlist,
        ),
    ),
  );
  musicFormChanged(false);
}

/** A source's name: the built-in ones in this page's language, a music folder by its own name. */
function sourceName(source) {
  return source.id === "demo" || source.id === "library"
    ? t(`dc.source.${source.id}`)
    : source.name;
}

/** A theme's name: the demo's genres and decades in this page's language, the others as tagged. */
function themeName(name) {
  return has(`dc.theme.${name}`) ? t(`dc.theme.${name}`) : name;
}

/** The themes the chosen source offers, with their own counts (never another source's). */
function themesOf(source) {
  if (source === "playlist")
    return library.playlists.find((p) => p.id === $("#playlist").value)?.themes || [];
  return library.sources.find((s) => s.id === source)?.themes || [];
}

function musicFormChanged(sourceChanged) {
  const source = $("input[name=source]:checked")?.value || "demo";
  $("#playlist-line").hidden = source !== "playlist";
  // Keep the ticked themes the new list still has (a refresh), drop the rest (another source).
  const ticked = new Set(sourceChanged ? [] : $$("input[name=theme]:checked").map((i) => i.value));
  const offered = source === "external" ? [] : themesOf(source);
  $("#length-line").hidden = $("#play-to-end").checked || source === "external";
  // The demo's progress refreshes the sources every second: leave an unchanged list (and the
  // focus in it) alone.
  const key = JSON.stringify([
    source,
    source === "playlist" ? $("#playlist").value : null,
    offered,
    library.sources.map((s) => s.ready),
  ]);
  if (!sourceChanged && key === shownThemes) return;
  shownThemes = key;
  $("#themes").replaceChildren(
    ...offered.map((theme) =>
      el(
        "label",
        { class: "theme" },
        el("input", {
          type: "checkbox",
          name: "theme",
          value: theme.name,
          checked: ticked.has(theme.name),
          onchange: checkMusic,
        }),
        el("span", {}, themeName(theme.name), el("small", {}, ` ${theme.tracks}`)),
      ),
    ),
  );
  $("#themes-box").hidden = !offered.length;
  checkMusic();
}

function musicSettings() {
  const source = $("input[name=source]:checked")?.value || "demo";
  return {
    source,
    playlist: source === "playlist" ? $("#playlist").value : null,
    themes: source === "external" ? [] : $$("input[name=theme]:checked").map((i) => i.value),
    play_to_end: $("#play-to-end").checked,
    skip_intro: $("#skip-intro").checked,
    length: Number($("#song-length").value),
  };
}

/** Asks the server what the chosen music would play: refused at once, or how many tracks. */
async function checkMusic() {
  const settings = musicSettings();
  const number = ++checks;
  const demoBeingMade = settings.source === "demo" && library.sources[0]?.ready === false;
  const note = $("#music-note");
  if (settings.source === "external" || demoBeingMade) {
    musicProblem = null;
    note.className = "music-note";
    note.textContent = demoBeingMade ? t("dc.music.demo_wait") : "";
    $("#create").disabled = creating;
    return;
  }
  try {
    const answer = await api("POST", "/api/music/check", settings);
    if (number !== checks) return;
    musicProblem = null;
    note.className = answer.repeats ? "music-note warn" : "music-note";
    note.textContent = answer.repeats
      ? t("dc.music.repeats", { count: answer.tracks, turns: answer.turns })
      : t("dc.music.enough", { tracks: tracks(answer.tracks), turns: answer.turns });
  } catch (error) {
    if (number !== checks) return;
    musicProblem = error.message;
    note.className = "music-note bad";
    note.textContent = error.message;
  }
  $("#create").disabled = creating || Boolean(musicProblem);
}

$("#playlist").addEventListener("change", () => musicFormChanged(true));
$("#play-to-end").addEventListener("change", () => musicFormChanged(false));

$("#setup-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  creating = true;
  $("#create").disabled = true;
  const variant = $("input[name=variant]:checked").value;
  const body = {
    game: "disc-cover",
    options: { variant },
    music: musicSettings(),
  };
  const seconds = Number($("#timer-choice").value);
  if (seconds) body.timer = seconds;
  try {
    const room = await api("POST", "/api/rooms", body);
    tokens.setHost(room.code, room.host_token);
    code = room.code;
    hostToken = room.host_token;
    enter();
  } catch (error) {
    toast(error.message, "#setup-error");
  } finally {
    creating = false;
    $("#create").disabled = Boolean(musicProblem);
  }
});

// ---- the room ------------------------------------------------------------------------------

function enter() {
  history.replaceState(null, "", `/table?room=${code}${params.has("hold") ? `&hold=${HOLD}` : ""}`);
  $("#setup").hidden = true;
  roomInfo = null;
  api("GET", `/api/rooms/${code}`)
    .then((info) => {
      roomInfo = info;
      if (last) render(last);
    })
    .catch(() => {});
  if (live) live.stop();
  live = new RoomSocket(code, hostToken, {
    onState: (message) => {
      previous = last?.view || null;
      music = message.music || null;
      noteClocks(message);
      if (message.view && message.status !== "lobby") noticeReveal(message);
      render(message);
    },
    // No such room, or a host token this room does not know: the close that follows says
    // what to do on a screen of its own.
    onError: (message) =>
      message.code !== "room/not_found" &&
      !(message.code === "auth/bad_token" && hostToken) &&
      showError(message.message),
    onAgain: moveTo,
    onClosed: (closed) => {
      if (closed === CLOSE.NOT_FOUND) showMissing();
      else if (closed === CLOSE.BAD_TOKEN && hostToken) forgetHost();
      else showError(t("dc.game.closed"));
    },
  });
}

/** The host token kept for this code is not this room's (one of an older room that had the
 * code, long gone): it is forgotten, and this screen watches the room instead. */
function forgetHost() {
  tokens.dropHost(code);
  hostToken = null;
  watch();
}

/** A spectator's screen: the room's table without its host token (see the top of this file). */
function watch() {
  watching = true;
  document.body.classList.add("spectator");
  renderWatching();
  enter();
}

/** The line on every screen of a spectator that says whose screen plays the music. */
function renderWatching() {
  for (const note of $$(".watch-note")) {
    note.hidden = !watching;
    if (!watching) continue;
    note.replaceChildren(
      el("span", { "aria-hidden": "true", class: "watch-icon" }),
      el(
        "span",
        { class: "watch-text" },
        el("b", {}, ...withCode("dc.watch.title")),
        el("small", {}, t("dc.watch.note")),
      ),
    );
    note.firstChild.innerHTML = ICONS.muted;
  }
}

/** A message with the room's code in it, the code set as a code (it reads the same in any language). */
function withCode(key, shown = code) {
  const [before, ...after] = t(key).split("{code}");
  return after.length
    ? [before, el("span", { class: "code" }, shown), after.join(shown)]
    : [before];
}

/** No room holds this code (never made, or long gone): say so, and let another code be typed. */
function showMissing() {
  if (live) live.stop();
  live = null;
  for (const id of ["setup", "lobby", "game", "over"]) $(`#${id}`).hidden = true;
  $("#missing").hidden = false;
  $("#missing-title").replaceChildren(...withCode("dc.missing.title"));
  $("#missing-text").replaceChildren(...withCode("dc.missing.text"));
  $("#missing-code").focus();
}

$("#missing-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const typed = normaliseCode($("#missing-code").value);
  if (typed.length !== 4) {
    toast(t("common.code_letters"), "#missing-error");
    return;
  }
  location.href = `/table?room=${typed}`;
});

function moveTo(newCode) {
  if (newCode === code) return;
  if (hostToken) tokens.setHost(newCode, hostToken);
  code = newCode;
  renderWatching();
  last = previous = reveal = null;
  seenAnimation = new Set();
  history.replaceState(null, "", `/table?room=${code}${params.has("hold") ? `&hold=${HOLD}` : ""}`);
  api("GET", `/api/rooms/${code}`)
    .then((info) => {
      roomInfo = info;
    })
    .catch(() => {});
  live.moveTo(code);
}

/** Local deadlines from the durations of a state message (the timer, the turn's auto-open, away). */
function noteClocks(message) {
  timerUntil =
    message.timer && typeof message.timer.remaining === "number"
      ? deadline(message.timer.remaining)
      : null;
  opensUntil = message.listening ? deadline(message.opens_in) : null;
  const away = new Map();
  for (const seat of message.seats || []) {
    if (typeof seat.away === "number")
      away.set(seat.seat, awaySince.get(seat.seat) ?? Date.now() - seat.away * 1000);
    else awayWaited.delete(seat.seat);
  }
  awaySince = away;
}

function showError(text) {
  for (const line of ["#lobby-error", "#over-error"]) toast(text, line);
  if (text) {
    $("#banner").textContent = text;
    $("#banner").dataset.text = text;
  }
}

const host = (method, path) => api(method, `/api/rooms/${code}/${path}`, undefined, hostToken);
const hostWith = (method, path, body) => api(method, `/api/rooms/${code}/${path}`, body, hostToken);

$("#add-bot").addEventListener("click", () =>
  hostWith("POST", "bots", { level: $("#bot-level").value }).catch((e) => showError(e.message)),
);
// The click on Start also lets this page play sound from then on (autoplay needs a gesture).
$("#start").addEventListener("click", () => {
  // Competitive: the first Leader is who listened to music most recently (the rules' choice).
  const competitive = !$("#leader-box").hidden;
  const body = competitive ? { leader: Number($("#first-leader").value) } : undefined;
  hostWith("POST", "start", body).catch((e) => showError(e.message));
});
$("#again").addEventListener("click", async () => {
  $("#again").disabled = true;
  try {
    const answer = await host("POST", "again");
    moveTo(answer.code);
  } catch (error) {
    showError(error.message);
  } finally {
    $("#again").disabled = false;
  }
});

function render(state) {
  last = state;
  music = state.music || null;
  // The last turn's reveal is shown on the game screen before the game-over screen.
  const screen =
    state.status === "lobby" || !state.view
      ? "lobby"
      : state.status === "over" && !reveal
        ? "over"
        : "game";
  for (const id of ["lobby", "game", "over", "missing"]) $(`#${id}`).hidden = id !== screen;
  if (screen === "lobby") return renderLobby(state);
  handleMusic(state);
  if (screen === "over") return renderOver(state);
  renderGame(state);
  if (state.status === "over") renderOver(state);
}

// ---- lobby ---------------------------------------------------------------------------------

/**
 * An address as the table writes it (without its scheme), able to wrap after each "/" and before
 * its query: a wrapped address keeps the room's code whole (it wrapped anywhere, "…/join/GUF" then
 * "Q"). A part longer than the line (a seat link's token) still wraps within itself.
 */
function showAddress(node, url) {
  const parts = url
    .replace(/^https?:\/\//, "")
    .replace(/\//g, "/\n")
    .replace(/\?/g, "\n?")
    .split("\n");
  node.replaceChildren(...parts.flatMap((part, i) => (i ? [el("wbr"), part] : [part])));
}

function renderLobby(state) {
  const info = roomInfo;
  $("#lobby-code").textContent = code;
  const url = info?.join_url || `${location.origin}/join/${code}`;
  showAddress($("#join-url"), url);
  const qr = $("#qr");
  if (qr.dataset.code !== code) {
    qr.dataset.code = code;
    qr.hidden = false;
    qr.onerror = () => {
      qr.hidden = true;
    };
    qr.src = `/api/rooms/${code}/qr.svg`;
  }
  const max = info?.max_players || 8;
  const min = info?.min_players || 3;
  $("#seat-count").textContent = t("dc.lobby.count", { count: state.seats.length, max });
  $("#lobby-seats").replaceChildren(
    ...state.seats.map((seat) =>
      el(
        "li",
        {
          class: `seat-chip${seat.connected ? "" : " away"}`,
          style: { "--c": seatColour(seat.seat) },
        },
        el("span", { class: "disc", "aria-hidden": "true" }, el("span", {}, initials(seat.name))),
        el(
          "span",
          { class: "seat-name", title: seat.name },
          seat.name,
          seat.bot
            ? el("small", {}, ` · ${levelName(seat.level)}`)
            : seat.connected
              ? ""
              : el("small", {}, ` ${t("dc.lobby.away")}`),
        ),
        watching
          ? null
          : el(
              "button",
              {
                type: "button",
                class: "quiet tiny",
                "aria-label": t("dc.lobby.remove", { name: seat.name }),
                onclick: () =>
                  host("DELETE", `seats/${seat.seat}`).catch((e) => showError(e.message)),
              },
              "✕",
            ),
      ),
    ),
  );
  $("#add-bot").disabled = state.seats.length >= max;
  $("#start").disabled = state.seats.length < min;
  const competitive = info?.options?.variant === "competitive";
  $("#leader-box").hidden = watching || !competitive || !state.seats.length;
  if (competitive) {
    const select = $("#first-leader");
    const chosen = select.value;
    const choices = state.seats.map((seat) => new Option(seat.name, String(seat.seat)));
    if (
      [...select.options].map((o) => `${o.value}:${o.text}`).join() !==
      choices.map((o) => `${o.value}:${o.text}`).join()
    ) {
      select.replaceChildren(...choices);
      if (chosen && Number(chosen) < state.seats.length) select.value = chosen;
    }
  }
  $("#lobby-hint").textContent =
    state.seats.length < min
      ? t("dc.lobby.need", { count: min - state.seats.length })
      : watching
        ? t("dc.watch.lobby")
        : t("dc.lobby.ready");
  const setup = info?.music;
  $("#lobby-music").textContent = setup
    ? t("dc.lobby.music", { source: describeSource(setup) })
    : "";
}

function describeSource(setup) {
  const names = Object.fromEntries(
    ["demo", "library", "playlist", "external"].map((id) => [id, t(`dc.describe.${id}`)]),
  );
  const themes = setup.themes?.length
    ? ` · ${setup.themes.map(themeName).join(t("common.list_sep"))}`
    : "";
  return `${names[setup.source] || setup.source}${themes}${setup.play_to_end ? ` · ${t("dc.describe.party")}` : ""}`;
}

// ---- the reveal ----------------------------------------------------------------------------

/** Starts a reveal when a turn has just been settled (the mosaic grew). */
function noticeReveal(state) {
  const view = state.view;
  if (!previous || !view) return;
  if (view.mosaic.length > previous.mosaic.length && view.last_turn) {
    reveal = { record: view.last_turn, until: Date.now() + HOLD };
    clearTimeout(revealTimer);
    revealTimer = setTimeout(endReveal, HOLD);
    stopAtReveal();
    if (!watching) cue("reveal", { buzz: false });
  } else if (previous.phase === "vote" && (view.phase === "tiebreak" || view.phase === "leader")) {
    stopAtReveal();
    if (!watching) cue("tie", { buzz: false });
  }
}

function endReveal() {
  reveal = null;
  // Party mode: the next song waits for this one to end (or for "Next song").
  if (queued && !(music?.play_to_end && songBusy())) nextSong();
  if (last) render(last);
}

const songBusy = () => !audio.paused && !audio.ended;

/** Plays the song that waits for its turn. */
function nextSong() {
  if (!queued) return;
  const next = queued;
  queued = null;
  load(next);
  if (last) render(last);
}

// ---- the song opens the vote ---------------------------------------------------------------

/**
 * Tells the server what the table's song is doing for the current turn: `playing` once the turn's
 * song is audibly playing (the audio element's `playing` event, or the host's button with an
 * external player), `hold` every ten seconds while party mode lets the last turn's song finish.
 */
function gate() {
  const state = last;
  // Only the host's screen leads the song: a spectator never opens or holds a turn.
  if (watching) return;
  if (state?.status !== "playing" || !state.listening || !state.view || !live) return;
  const turn = state.view.turn;
  const now = Date.now();
  const external = music?.source === "external";
  if (!external && music?.url && heardTurn === turn && playing.turn === turn && songBusy()) {
    // Once per turn, again every few seconds if the answer has not come (a lost message).
    if (told.turn !== turn || now - told.at > 3000) {
      told = { turn, at: now };
      live.send({ type: "playing", turn });
    }
    return;
  }
  const waitingForSong = music?.play_to_end && (external || (queued && songBusy()));
  if (waitingForSong && (held.turn !== turn || now - held.at >= HOLD_EVERY)) {
    held = { turn, at: now };
    live.send({ type: "hold", turn });
  }
}

$("#song-playing").addEventListener("click", () => {
  const turn = last?.view?.turn;
  if (!turn || !live || watching) return;
  told = { turn, at: Date.now() };
  live.send({ type: "playing", turn });
});
$("#next-song").addEventListener("click", () => {
  audio.pause();
  nextSong();
});

// ---- music ---------------------------------------------------------------------------------

function handleMusic(state) {
  // A spectator plays nothing: two screens playing one song would be an echo, out of step.
  if (watching) {
    if (!audio.paused) audio.pause();
    return;
  }
  const external = music?.source === "external";
  $("#player").classList.toggle("external", external);
  if (state.status === "over") {
    // No turn follows, so the message names no track. The last turn's song is still the one
    // the table reveals: its line stays, and in party mode it plays on to its end.
    queued = null;
    if (!music?.play_to_end && !audio.paused) audio.pause();
    return;
  }
  if (!music || external || !music.url) {
    if (!audio.paused) audio.pause();
    showTrack(null);
    return;
  }
  // The same track may come back for another turn (a small theme): a turn is a new song.
  const same = (track) => track && track.url === music.url && track.turn === music.turn;
  if (same(playing) || same(queued)) return;
  const skip = music.turn === playing.turn;
  const busy = !audio.paused && !audio.ended;
  if (!skip && reveal && !music.play_to_end)
    queued = music; // after the reveal
  else if (!skip && music.play_to_end && busy)
    queued = music; // after this song
  else load(music);
}

function load(track) {
  // A long track starts where its music starts (`start`, seconds) and plays `length` seconds
  // (null in party mode: to its end).
  const start = Math.max(Number(track.start) || 0, 0);
  playing = {
    url: track.url,
    turn: track.turn,
    track: track.track,
    start,
    length: track.length ?? null,
  };
  heardTurn = null;
  audio.src = start ? `${track.url}#t=${start.toFixed(1)}` : track.url;
  showTrack(track.track);
  audio
    .play()
    .then(() => {
      $("#unmute").hidden = true;
    })
    .catch(() => {
      $("#unmute").hidden = false;
    });
}

function stopAtReveal() {
  if (music && !music.play_to_end && !audio.paused) audio.pause();
}

function showTrack(track) {
  $("#now-title").textContent = track ? track.title : "";
  $("#now-artist").textContent = track ? track.artist : "";
}

audio.addEventListener("ended", () => {
  if (queued && !reveal) nextSong();
  else if (last) render(last);
});
audio.addEventListener("timeupdate", () => {
  if (playing.length && audio.currentTime >= playing.start + playing.length && !audio.paused)
    audio.pause();
});
audio.addEventListener("playing", () => {
  heardTurn = playing.turn;
  gate();
  if (last?.view && last.status === "playing") renderGame(last);
});
for (const type of ["play", "pause", "ended"]) {
  audio.addEventListener(type, () => {
    const on = !audio.paused && !audio.ended;
    $("#vinyl").classList.toggle("spinning", on);
    $("#pause").innerHTML = on ? ICONS.pause : ICONS.play;
    $("#pause").setAttribute("aria-label", on ? t("dc.game.pause") : t("dc.game.play"));
  });
}
$("#pause").addEventListener("click", () => {
  if (audio.paused) audio.play().catch(() => {});
  else audio.pause();
});
$("#unmute").addEventListener("click", () => {
  audio
    .play()
    .then(() => {
      $("#unmute").hidden = true;
    })
    .catch(() => {});
});
$("#skip").addEventListener("click", () =>
  host("POST", "music/skip").catch((e) => showError(e.message)),
);

// ---- the game ------------------------------------------------------------------------------

function names(state) {
  return state.seats.map((s) => s.name);
}

function cardList(cards) {
  return andList(cards.map((card) => t("dc.record", { card })));
}

function renderGame(state) {
  const view = state.view;
  $("#game-code").textContent = code;
  $("#turn").textContent = t("dc.game.turn", {
    turn: reveal ? reveal.record.turn : view.turn,
    turns: view.turns,
  });
  const competitive = view.variant === "competitive";
  $("#score").replaceChildren(
    competitive
      ? el("span", {}, variantName("competitive"))
      : el(
          "span",
          {},
          `${t("dc.game.team_score")} `,
          el("b", { class: "neon" }, String(view.score)),
        ),
  );
  renderPlayerPanel(view);
  renderBanner(state);
  renderRecords(state);
  renderMosaic($("#mosaic"), view.mosaic, false);
  renderSeats(state);
  tick();
}

/** What changes with the clock: the vote timer, the auto-open countdown, phones gone too long. */
function tick() {
  const state = last;
  if (!state?.view || state.status !== "playing") {
    $("#timer").hidden = true;
    $("#away-banner").hidden = true;
    return;
  }
  gate();
  const left = secondsLeft(timerUntil);
  const timer = $("#timer");
  timer.hidden = left === null || state.listening || Boolean(reveal);
  if (!timer.hidden) {
    const text = t("common.seconds", { count: left });
    if (timer.textContent !== text) timer.textContent = text;
    timer.classList.toggle("urgent", left <= 5);
    timer.setAttribute("aria-label", t("dc.timer.aria", { count: left }));
  }
  const opens = $("#opens-in");
  if (opens) opens.textContent = String(secondsLeft(opensUntil) ?? "");
  renderAway(state);
}
setInterval(tick, 500);

/** The first seat whose phone has been gone over ten seconds while its choice is awaited. */
function awaySeat(state) {
  if (watching || reveal || state.listening) return null;
  const now = Date.now();
  for (const seat of state.view.waiting_for) {
    const since = awaySince.get(seat);
    if (since === undefined || now - since < AWAY_AFTER) continue;
    const waited = awayWaited.get(seat);
    if (waited !== undefined && now - waited < WAIT_AGAIN) continue;
    return state.seats[seat];
  }
  return null;
}

function renderAway(state) {
  const seat = awaySeat(state);
  const box = $("#away-banner");
  box.hidden = !seat;
  // The alert takes the banner's place: it says what the vote waits for.
  $(".banner-row").hidden = Boolean(seat);
  if (!seat) return;
  box.dataset.seat = String(seat.seat);
  const gone = Math.round((Date.now() - awaySince.get(seat.seat)) / 1000);
  const text = t("dc.away.text", { name: seat.name, seconds: gone });
  if ($("#away-text").textContent !== text) $("#away-text").textContent = text;
  $("#away-bot").setAttribute("aria-label", t("dc.away.bot", { name: seat.name }));
}

$("#away-bot").addEventListener("click", () => {
  const seat = Number($("#away-banner").dataset.seat);
  awayWaited.set(seat, Date.now()); // until the bot's seat comes back in the next state
  $("#away-banner").hidden = true;
  hostWith("POST", `seats/${seat}/bot`, { level: "normal" }).catch((e) => showError(e.message));
});
$("#away-wait").addEventListener("click", () => {
  awayWaited.set(Number($("#away-banner").dataset.seat), Date.now());
  $("#away-banner").hidden = true;
});

function renderPlayerPanel(view) {
  const external = music?.source === "external";
  $("#skip").hidden = !music || external;
  $("#pause").hidden = !music || external;
  if (external) {
    $("#now-title").textContent = t("dc.game.external");
    $("#now-artist").textContent = t("dc.game.external.note");
  } else if (!music) {
    $("#now-title").textContent = t("dc.game.no_music");
    $("#now-artist").textContent = "";
  }
  void view;
}

function renderBanner(state) {
  const view = state.view;
  const who = names(state);
  const external = music?.source === "external";
  let text;
  const stop = external && !music.play_to_end && !watching ? ` ${t("dc.banner.stop")}` : "";
  const listening = Boolean(state.listening) && state.status === "playing";
  $("#song-playing").hidden = watching || !(listening && external && !reveal);
  $("#next-song").hidden = !(music?.play_to_end && queued && songBusy() && !reveal);
  if (reveal) {
    text = revealText(reveal.record, state);
  } else if (listening) {
    text = listeningText(state);
  } else if (view.phase === "tiebreak") {
    text =
      (view.tiebreak_round > 1
        ? t("dc.banner.tie_round", { cards: cardList(view.candidates), round: view.tiebreak_round })
        : t("dc.banner.tie", { cards: cardList(view.candidates) })) + stop;
  } else if (view.phase === "leader") {
    text =
      t("dc.banner.leader", { cards: cardList(view.candidates), name: who[view.leader] }) + stop;
  } else {
    const waiting = view.waiting_for.length;
    const toCome = waiting ? ` ${t("dc.banner.to_come", { count: waiting })}` : "";
    text = (external ? t("dc.banner.pick_external") : t("dc.banner.pick")) + toCome;
  }
  const banner = $("#banner");
  if (banner.dataset.text !== text) {
    banner.dataset.text = text;
    // The auto-open countdown is a live number inside the text.
    const parts = text.split("{opens}");
    banner.replaceChildren(
      parts[0],
      ...(parts.length > 1
        ? [el("b", { id: "opens-in" }, String(secondsLeft(opensUntil) ?? "")), parts[1]]
        : []),
    );
  }
  banner.className = `banner${reveal ? " reveal" : listening ? " listening" : view.phase !== "vote" ? " tie" : ""}`;
  // The help link opens the part of the rules this moment is about.
  const part = reveal ? "reveal" : listening ? "turn" : view.phase === "vote" ? "vote" : view.phase;
  $("#banner-help").href = `/how-to-play/disc-cover#${part}`;
}

/** The banner before a turn's vote opens: what the song is doing. Never "listen" over an old song. */
function listeningText(state) {
  const turn = state.view.turn;
  if (watching) return t("dc.watch.listening", { turn });
  const external = music?.source === "external";
  // {opens} stays in the text: the banner puts a live countdown there.
  const opens = opensUntil !== null ? ` ${t("dc.banner.opens")}` : "";
  if (external) {
    return music.play_to_end
      ? t("dc.banner.ext_party", { turn })
      : t("dc.banner.ext", { turn, opens });
  }
  if (!music?.url) return t("dc.banner.begins", { turn });
  if (queued && songBusy()) {
    return t("dc.banner.plays_to_end", {
      title: playing.track?.title || t("dc.banner.this_song"),
      turn,
    });
  }
  if (!$("#unmute").hidden) return t("dc.banner.press_play", { turn, opens });
  if (heardTurn === turn) return t("dc.banner.listen", { turn });
  return t("dc.banner.here_comes", { turn });
}

function revealText(record, state) {
  const who = names(state);
  const votes = votesByCard(record.votes)[record.card].length;
  const external = music?.source === "external";
  const stop = external && !music.play_to_end && !watching ? ` ${t("dc.banner.stop")}` : "";
  const how =
    record.decided_by === "majority"
      ? t("dc.reveal.majority", { count: votes })
      : record.decided_by === "leader"
        ? t("dc.reveal.leader", { name: who[record.leader] })
        : record.decided_by === "draw"
          ? t("dc.reveal.draw")
          : t("dc.reveal.tiebreak");
  const gain =
    state.view.variant === "competitive"
      ? record.scorers.length
        ? t("dc.reveal.point_for", { names: andList(record.scorers.map((s) => who[s])) })
        : t("dc.reveal.no_points")
      : t("dc.reveal.team", { points: record.points });
  return t("dc.reveal.text", { card: record.card, title: record.sleeve.title, how, gain }) + stop;
}

function renderRecords(state) {
  const view = state.view;
  const record = reveal?.record;
  const entries = record
    ? record.sleeves.map((sleeve, i) => ({ card: i + 1, sleeve }))
    : view.records;
  const shownVotes = record ? record.votes : view.phase !== "vote" ? view.votes : null;
  const byCard = shownVotes ? votesByCard(shownVotes) : null;
  const round = record ? record.tiebreak_votes.at(-1) : view.tiebreak_votes.at(-1);
  const roundByCard = round ? votesByCard(round) : null;
  const candidates = record ? null : view.phase === "vote" ? null : view.candidates;
  // Before the song plays the sleeves stay face down, here as on the phones.
  const covered = !record && Boolean(state.listening);
  const key = record
    ? `r${record.turn}`
    : `t${view.turn}-${view.phase}${covered ? "-covered" : ""}`;
  const who = names(state);
  const cards = entries.map(({ card, sleeve }) => {
    const winner = record && record.card === card;
    const out = (record && !winner) || (candidates && !candidates.includes(card));
    const votes = byCard ? byCard[card] : [];
    const animate = !seenAnimation.has(`${key}-${card}`);
    const discs = votes.map((seat, i) =>
      el(
        "span",
        {
          class: `disc${animate ? " drop" : ""}`,
          style: { "--c": seatColour(seat), animationDelay: `${0.15 * i + 0.1 * card}s` },
          title: who[seat],
        },
        el("span", {}, initials(who[seat])),
      ),
    );
    // The tie-break's votes as discs too, one short line under the first vote's: written out,
    // "Tie-break vote: Ann, Bo, Cy and Di" took three lines and ran over the seats below.
    const backers = roundByCard?.[card] ?? [];
    const tieRound = backers.length
      ? el(
          "p",
          {
            class: "tb-votes",
            title: t("dc.card.tiebreak_votes", { names: andList(backers.map((s) => who[s])) }),
          },
          el("span", { class: "tb-tag" }, t("dc.card.tiebreak_tag")),
          ...backers.map((seat) =>
            el(
              "span",
              { class: "disc", style: { "--c": seatColour(seat) }, title: who[seat] },
              el("span", {}, initials(who[seat])),
            ),
          ),
        )
      : null;
    const label =
      t("dc.card.label", {
        card,
        title: sleeve.title || t("dc.card.sleeve"),
        artist: sleeve.artist || "",
      }) +
      (byCard
        ? `; ${t("dc.card.votes", { count: votes.length })}${votes.length ? ` (${andList(votes.map((s) => who[s]))})` : ""}`
        : "") +
      (backers.length
        ? `; ${t("dc.card.tiebreak_votes", { names: andList(backers.map((s) => who[s])) })}`
        : "");
    if (covered) {
      return el(
        "article",
        { class: "record covered", "aria-label": t("dc.card.face_down", { card }) },
        el(
          "p",
          { class: "tab display", "aria-hidden": "true" },
          el("span", {}, t("dc.record.word")),
          el("b", {}, String(card)),
        ),
        el(
          "div",
          { class: "sleeve-wrap" },
          el("div", { class: "sleeve-art face-down", "aria-hidden": "true" }),
        ),
      );
    }
    return el(
      "article",
      {
        class: `record${winner ? " winner" : ""}${out ? " out" : ""}${candidates?.includes(card) ? " tied" : ""}${winner && animate ? " glow" : ""}`,
        "aria-label": label,
      },
      el(
        "p",
        { class: "tab display", "aria-hidden": "true" },
        el("span", {}, t("dc.record.word")),
        el("b", {}, String(card)),
      ),
      el(
        "div",
        { class: "sleeve-wrap" },
        sleeveImage(sleeve),
        winner ? el("span", { class: "points-badge" }, `+${record.points}`) : null,
      ),
      el("p", { class: "sleeve-title" }, sleeve.title || ""),
      el("p", { class: "sleeve-artist muted" }, sleeve.artist || ""),
      el("div", { class: "vote-row", "aria-hidden": "true" }, discs),
      tieRound,
    );
  });
  const holder = $("#records");
  holder.classList.toggle("listening", covered);
  if (holder.dataset.key !== key || holder.dataset.sig !== signature(entries, shownVotes, round)) {
    holder.dataset.key = key;
    holder.dataset.sig = signature(entries, shownVotes, round);
    holder.replaceChildren(...cards);
    for (const { card } of entries) seenAnimation.add(`${key}-${card}`);
  }
  fitRecords();
}

const LEAST_SLEEVE = 0.55; // the smallest share of their size fitRecords draws the sleeves at
// The sleeves' fit, as a rule that holds only at the screen size it was made for: right after a
// resize, before the next fit, the sleeves are drawn at the size table.css gives them there.
const sleeveFit = new CSSStyleSheet();
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sleeveFit];

function holdSleeveScale(scale) {
  if (scale === null) {
    sleeveFit.replaceSync("");
    return;
  }
  const near = (name, size) => `(min-${name}: ${size - 0.5}px) and (max-${name}: ${size + 0.5}px)`;
  sleeveFit.replaceSync(
    `@media ${near("width", innerWidth)} and ${near("height", innerHeight)} {` +
      ` #records { --sleeve-scale: ${scale.toFixed(4)}; } }`,
  );
}

/**
 * Makes the sleeves smaller when what is under them (a title on two lines, a row of many discs,
 * the tie-break's discs) would run over the seats: the room table.css leaves them is for a title
 * of one line and one row of discs. Heights are read without the discs' and winner's motion.
 */
function fitRecords() {
  const holder = $("#records");
  holdSleeveScale(null);
  const records = [...holder.children];
  const sleeve = records[0]?.querySelector(".sleeve-wrap");
  const full = sleeve?.offsetWidth ?? 0; // the sleeves' width as table.css gives it
  for (let tries = 0; tries < 6 && full; tries += 1) {
    tuckTieBreaks(holder);
    // The sleeves' holder is their offset parent (table.css): layout positions, before transforms.
    const bottom = Math.max(...records.map((record) => record.offsetTop + record.offsetHeight));
    const over = bottom + 4 - holder.clientHeight; // and a little air above the seats
    const width = sleeve.offsetWidth;
    if (over <= 0.5 || width <= LEAST_SLEEVE * full) return;
    holdSleeveScale(Math.max((width - over - 1) / full, LEAST_SLEEVE));
  }
  tuckTieBreaks(holder);
}

/**
 * Overlaps a tie-break line's discs as much as it takes to keep the line as wide as its record,
 * each still showing its initials (two thirds of it); a line that is wider even so puts its tag on
 * a line of its own above the discs, whole (the sleeves then leave room for it: fitRecords).
 */
function tuckTieBreaks(holder) {
  for (const line of holder.querySelectorAll(".tb-votes")) {
    const discs = [...line.querySelectorAll(".disc")];
    for (const disc of discs) disc.style.removeProperty("margin-left");
    line.classList.remove("wraps");
    const over = line.scrollWidth - line.clientWidth;
    if (over <= 0) continue;
    if (discs.length > 1) {
      const step = Math.min(over / (discs.length - 1), 0.35 * discs[0].offsetWidth);
      for (const disc of discs.slice(1)) disc.style.marginLeft = `${-step}px`;
    }
    if (line.scrollWidth <= line.clientWidth + 1) continue;
    for (const disc of discs) disc.style.removeProperty("margin-left");
    line.classList.add("wraps");
  }
}
addEventListener("resize", () => {
  if (!$("#records").hidden) fitRecords();
});

function signature(entries, votes, round) {
  return JSON.stringify([entries.map((e) => e.sleeve.id), votes, round]);
}

function renderMosaic(list, mosaic, big) {
  const cells = [];
  for (let place = 0; place < 9; place += 1) {
    const tile = mosaic[place];
    if (!tile) {
      cells.push(
        el("li", { class: "tile empty", "aria-label": t("dc.mosaic.empty", { place: place + 1 }) }),
      );
      continue;
    }
    const key = `m${code}-${place}-${tile.sleeve.id}-${big}`;
    const fresh = !seenAnimation.has(key);
    seenAnimation.add(key);
    cells.push(
      el(
        "li",
        {
          class: `tile${fresh && previous ? " pop" : ""}`,
          "aria-label": t("dc.mosaic.tile", {
            place: place + 1,
            title: tile.sleeve.title,
            points: points(tile.points),
          }),
        },
        sleeveImage(tile.sleeve),
        el("span", { class: "points-badge", "aria-hidden": "true" }, String(tile.points)),
      ),
    );
  }
  const sig = JSON.stringify(mosaic.map((t) => [t.sleeve.id, t.points]));
  if (list.dataset.sig !== sig) {
    list.dataset.sig = sig;
    list.replaceChildren(...cells);
  }
}

function renderSeats(state) {
  const view = state.view;
  const competitive = view.variant === "competitive";
  // During a Leader's reveal the token stays with the one who decided; it moves on after.
  const leaderSeat = reveal ? reveal.record.leader : view.leader;
  // Kept across states (morph): a vote coming in must not replace the seat the host clicks (in
  // play the seats keep their places: none is added or taken away).
  morph(
    $("#seats"),
    ...state.seats.map((seat) => {
      const voted = !reveal && !state.listening && view.voted[seat.seat];
      const waiting = !state.listening && view.waiting_for.includes(seat.seat);
      const leader = competitive && leaderSeat === seat.seat;
      const away = typeof seat.away === "number";
      const handed = handedToBot(seat);
      // While a reveal is on the table the next turn's votes are not news yet.
      const status = reveal
        ? t("dc.seat.picked", { card: reveal.record.votes[seat.seat] })
        : state.listening
          ? away
            ? t("dc.seat.phone_away")
            : t("dc.seat.listening")
          : view.phase === "leader"
            ? leader
              ? t("dc.seat.deciding")
              : ""
            : voted
              ? t("dc.seat.voted")
              : waiting
                ? away
                  ? t("dc.seat.phone_away")
                  : t("dc.seat.thinking")
                : "";
      const who = handed
        ? t("dc.seat.bot_plays", { level: levelName(seat.level) })
        : seat.bot
          ? levelName(seat.level)
          : "";
      // The host clicks a seat for its menu; a spectator's seats are only shown.
      return el(
        watching ? "div" : "button",
        {
          type: watching ? null : "button",
          role: watching ? "group" : null,
          class: `seat${voted ? " voted" : ""}${seat.connected ? "" : " away"}${leader ? " leader" : ""}${seat.bot ? " bot" : ""}`,
          style: { "--c": seatColour(seat.seat) },
          "aria-haspopup": watching ? null : "dialog",
          "aria-label": t(watching ? "dc.seat.aria_watch" : "dc.seat.aria", {
            name: seat.name,
            who: who ? ` (${who})` : "",
            leader: leader ? t("dc.seat.aria_leader") : "",
            status: status || t("dc.seat.waiting"),
            points: competitive ? `, ${points(view.points[seat.seat])}` : "",
          }),
          onclick: watching ? null : () => openSeatMenu(seat.seat),
        },
        el("span", { class: "disc", "aria-hidden": "true" }, el("span", {}, initials(seat.name))),
        el(
          "span",
          { class: "seat-text" },
          el("b", { title: seat.name }, seat.name),
          el("small", { class: "seat-status" }, [status, who].filter(Boolean).join(" · ")),
        ),
        leader
          ? el(
              "span",
              { class: "leader-token", title: t("dc.seat.leader_token") },
              t("dc.seat.leader"),
            )
          : null,
        competitive ? el("span", { class: "seat-points" }, String(view.points[seat.seat])) : null,
      );
    }),
  );
  if ($("#seat-menu").open) fillSeatMenu();
}

/** A person's seat that a bot plays for now (bots added as bots are named "Bot N"). */
const handedToBot = (seat) => seat.bot && !/^bot\b/i.test(seat.name);

// ---- the seat menu: any seat to a bot (at a level), back to its player, or to a new phone --------

let menuSeat = null;

function openSeatMenu(seatNo) {
  if (watching || !last?.seats[seatNo]) return;
  menuSeat = seatNo;
  fillSeatMenu();
  $("#menu-name").value = "";
  $("#menu-link").hidden = true;
  toast("", "#menu-error");
  const menu = $("#seat-menu");
  if (!menu.open) menu.showModal();
}

/** What the open menu says about its seat, kept up to date as the seat changes hands. */
function fillSeatMenu() {
  const seat = last?.seats[menuSeat];
  if (!seat) return;
  const handed = handedToBot(seat);
  $("#seat-menu-title").textContent = seat.name;
  $("#seat-menu-state").textContent = seat.bot
    ? handed
      ? t("dc.menu.bot_for", { level: levelName(seat.level), name: seat.name })
      : t("dc.menu.a_bot", { level: levelName(seat.level) })
    : seat.connected
      ? t("dc.menu.here", { name: seat.name })
      : t("dc.menu.gone", { name: seat.name });
  $("#menu-give-back").hidden = !handed;
  $("#menu-give-back").textContent = t("dc.menu.give_back", { name: seat.name });
  for (const button of $$("#menu-bot button")) {
    button.setAttribute(
      "aria-label",
      t("dc.menu.bot_aria", { level: levelName(button.value), name: seat.name }),
    );
    button.classList.toggle("current", seat.bot && (seat.level || "normal") === button.value);
  }
}

$("#seat-menu form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const choice = event.submitter?.value;
  const seat = menuSeat;
  const menu = $("#seat-menu");
  if (choice === "close" || seat === null) {
    menu.close();
    return;
  }
  try {
    if (choice === "give-back") {
      await host("DELETE", `seats/${seat}/bot`);
      menu.close();
    } else if (choice === "new-phone") {
      const name = $("#menu-name").value.trim();
      if (!name) {
        toast(t("dc.menu.type_name"), "#menu-error");
        return;
      }
      const answer = await hostWith("DELETE", `seats/${seat}/bot`, { name });
      showSeatLink(answer.token);
    } else {
      await hostWith("POST", `seats/${seat}/bot`, { level: choice });
      menu.close();
    }
  } catch (error) {
    toast(error.message, "#menu-error");
  }
});

/** The link (and its QR code) that gives a seat to a new phone: it carries the seat's new token. */
function showSeatLink(token) {
  const base = (roomInfo?.join_url || `${location.origin}/join/${code}`).replace(/\/join\/.*$/, "");
  const url = `${base}/join/${code}?seat_token=${encodeURIComponent(token)}`;
  showAddress($("#menu-url"), url);
  $("#menu-url").dataset.url = url;
  // Drawn here: the token never goes to the server inside a picture's address.
  $("#menu-qr").innerHTML = qrSvg(url);
  $("#menu-link").hidden = false;
}

// ---- game over -----------------------------------------------------------------------------

function renderOver(state) {
  const view = state.view;
  const result = state.result || view.result;
  renderMosaic($("#final-mosaic"), view.mosaic, true);
  const who = names(state);
  if (view.variant === "competitive") {
    const best = Math.max(...result.points);
    const winners = result.winners.map((s) => who[s]);
    const order = result.points
      .map((p, seat) => ({ p, seat }))
      .sort((a, b) => b.p - a.p || a.seat - b.seat);
    let place = 0;
    let lastPoints = null;
    const verdict =
      winners.length > 1
        ? t("dc.over.share", { names: andList(winners) })
        : t("dc.over.wins", { name: winners[0] });
    $("#verdict").replaceChildren(
      // Many or long names share the victory: smaller, so the buttons below stay on screen.
      el("p", { class: `verdict-line neon display${verdict.length > 32 ? " long" : ""}` }, verdict),
      el(
        "ol",
        {
          class: order.length > 4 ? "ranking columns" : "ranking",
          style: { "--rows": String(Math.ceil(order.length / 2)) },
        },
        order.map(({ p, seat }, i) => {
          if (p !== lastPoints) {
            place = i + 1;
            lastPoints = p;
          }
          return el(
            "li",
            { class: p === best ? "won" : "", style: { "--c": seatColour(seat) } },
            el("span", { class: "place" }, String(place)),
            el(
              "span",
              { class: "disc", "aria-hidden": "true" },
              el("span", {}, initials(who[seat])),
            ),
            el("span", { class: "rank-name", title: who[seat] }, who[seat]),
            el("span", { class: "rank-points" }, points(p)),
          );
        }),
      ),
    );
  } else {
    const { ladder, next } = tierLadder(view.players, result.score);
    $("#verdict").replaceChildren(
      el(
        "p",
        { class: "muted" },
        t("dc.over.team_scored", { score: result.score, count: view.players }),
      ),
      el("p", { class: "tier neon display" }, tierName(result.tier)),
      el("p", { class: "next-tier" }, nextTierLine(next)),
    );
    $("#ladder").replaceChildren(...ladderItems(ladder));
  }
  $("#ladder").hidden = view.variant === "competitive";
  $("#over-explain").textContent = t(
    view.variant === "competitive" ? "dc.over.explain.comp" : "dc.over.explain.coop",
  );
  $("#over-rules").href =
    `/how-to-play/disc-cover#${view.variant === "competitive" ? "ranking" : "tiers"}`;
  $("#download").href = `/api/rooms/${code}/mosaic.png?lang=${encodeURIComponent(lang)}`;
  $("#download").setAttribute("download", `disc-cover-${code}.png`);
}

// ---- start ---------------------------------------------------------------------------------

// Another language chosen on this screen: everything drawn from the state is drawn again.
onLanguage(() => {
  $("#records").dataset.sig = "";
  for (const list of [$("#mosaic"), $("#final-mosaic")]) list.dataset.sig = "";
  $("#banner").dataset.text = "";
  shownThemes = null;
  renderWatching();
  if (!$("#missing").hidden) showMissing();
  else if (last) render(last);
  else showSources(true);
});

if (code && hostToken) enter();
else if (code) watch();
else {
  $("#setup").hidden = false;
  loadMusic();
}
