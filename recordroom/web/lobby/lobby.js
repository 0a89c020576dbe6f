// The minimal lobby: create a room, join one with its code, and play through raw legal actions
// until the real table and phone pages arrive. Tokens are kept in this browser's localStorage.
"use strict";

const $ = (id) => document.getElementById(id);
const store = window.localStorage;
let socket = null;
let current = null; // { code, token, host }

async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const answer = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = answer.status === 204 ? null : await answer.json();
  if (!answer.ok) throw new Error(`${data.message} (${data.code})`);
  return data;
}

function showError(error) { $("error").textContent = error ? String(error.message || error) : ""; }

async function loadGames() {
  const games = await api("GET", "/api/games");
  const select = $("game");
  select.innerHTML = "";
  for (const game of games) select.add(new Option(game.title, game.name));
  const showOptions = () => {
    const game = games.find((g) => g.name === select.value);
    $("options").innerHTML = "";
    for (const options of game.option_sets) {
      const label = Object.entries(options).map(([k, v]) => `${k}: ${v}`).join(", ") || "default";
      $("options").add(new Option(label, JSON.stringify(options)));
    }
  };
  select.onchange = showOptions;
  showOptions();
}

$("create-form").onsubmit = async (event) => {
  event.preventDefault();
  try {
    const options = JSON.parse($("options").value || "{}");
    const room = await api("POST", "/api/rooms", { game: $("game").value, options });
    store.setItem(`recordroom.host.${room.code}`, room.host_token);
    enter(room.code, room.host_token, true);
  } catch (error) { showError(error); }
};

$("join-form").onsubmit = async (event) => {
  event.preventDefault();
  const code = $("join-code").value.trim().toUpperCase();
  try {
    const known = store.getItem(`recordroom.seat.${code}`);
    if (known) return enter(code, known, false);
    const seat = await api("POST", `/api/rooms/${code}/seats`, { name: $("join-name").value });
    store.setItem(`recordroom.seat.${code}`, seat.token);
    enter(code, seat.token, false);
  } catch (error) { showError(error); }
};

$("watch-link").onclick = (event) => {
  event.preventDefault();
  const code = $("join-code").value.trim().toUpperCase();
  if (code) enter(code, null, false);
};

function enter(code, token, host) {
  current = { code, token, host };
  history.replaceState(null, "", `/?room=${code}`);
  $("start").hidden = true;
  $("room").hidden = false;
  $("room-code").textContent = code;
  $("room-code-2").textContent = code;
  $("join-url").textContent = `${location.origin}/`;
  $("host-tools").hidden = !host;
  connect();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = current.token ? `?token=${encodeURIComponent(current.token)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${current.code}${query}`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") { showError(null); render(message); }
    else if (message.type === "error") showError(`${message.message} (${message.code})`);
  };
  // A dropped connection keeps the seat: come back with the same token.
  socket.onclose = (event) => { if (event.code < 4000) setTimeout(connect, 1500); };
}

function render(state) {
  $("room-status").textContent =
    state.status === "lobby" ? "Waiting for the host to start." :
    state.status === "over" ? `Game over: ${JSON.stringify(state.result)}` :
    `Playing (move ${state.version}).`;
  const seats = $("seats");
  seats.innerHTML = "";
  state.seats.forEach((seat) => {
    const item = document.createElement("li");
    item.className = seat.connected ? "" : "off";
    const who = seat.bot ? " (bot)" : seat.connected ? "" : " (away)";
    const you = state.seat === seat.seat ? " ← you" : "";
    item.textContent = `${seat.seat + 1}. ${seat.name}${who}${you} `;
    if (current.host) item.append(...hostButtons(state, seat));
    seats.append(item);
  });
  $("host-tools").hidden = !current.host || state.status !== "lobby";
  $("play").hidden = state.role !== "seat";
  const actions = $("actions");
  actions.innerHTML = state.legal_actions.length ? "" : "Nothing to do right now.";
  for (const action of state.legal_actions) {
    const button = document.createElement("button");
    button.textContent = Object.values(action).join(" ");
    button.onclick = () => socket.send(JSON.stringify({ type: "act", version: state.version, action }));
    actions.append(button);
  }
  $("view").textContent = JSON.stringify(state.view, null, 2);
}

function hostButtons(state, seat) {
  const make = (label, method, path) => {
    const button = document.createElement("button");
    button.className = "small";
    button.textContent = label;
    button.onclick = () => api(method, `/api/rooms/${current.code}/${path}`, undefined, current.token)
      .catch(showError);
    return button;
  };
  const buttons = [];
  if (state.status === "lobby") buttons.push(make("remove", "DELETE", `seats/${seat.seat}`));
  else if (seat.bot) buttons.push(make("give back", "DELETE", `seats/${seat.seat}/bot`));
  else buttons.push(make("hand to a bot", "POST", `seats/${seat.seat}/bot`));
  return buttons;
}

$("add-bot").onclick = () =>
  api("POST", `/api/rooms/${current.code}/bots`, undefined, current.token).catch(showError);
$("start-game").onclick = () =>
  api("POST", `/api/rooms/${current.code}/start`, undefined, current.token).catch(showError);

(function init() {
  loadGames().catch(showError);
  const code = new URLSearchParams(location.search).get("room");
  if (code) {
    $("join-code").value = code;
    const host = store.getItem(`recordroom.host.${code}`);
    const seat = store.getItem(`recordroom.seat.${code}`);
    if (host) enter(code, host, true);
    else if (seat) enter(code, seat, false);
  }
})();
