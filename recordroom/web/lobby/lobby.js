// The landing page: one way into each game's own table screen, and a room code box for phones.
// Rooms are only ever made by a game's table screen, which sets up everything the game needs
// (music, sleeves, QR code), so no page here creates a room that cannot be played.
import { $, normaliseCode, toast, tokens } from "/static/common/client.js";
import { t } from "/static/common/i18n.js";

$("#join-form").onsubmit = async (event) => {
  event.preventDefault();
  const code = normaliseCode($("#join-code").value);
  if (code.length !== 4) {
    toast(t("common.code_letters"));
    return;
  }
  // The phone page of the room's game is served at /join/CODE (it asks for a name there).
  location.assign(`/join/${code}`);
};

// An old address of this page with a room (/?room=CODE) goes to that room's own page: the
// table for the browser that holds its host token, the phone page otherwise. The join form
// sends that address itself when it is used before this script has run (a slow phone).
(function followOldLinks() {
  const code = normaliseCode(new URLSearchParams(location.search).get("room"));
  if (code.length !== 4) return;
  if (tokens.host(code)) location.replace(`/table?room=${code}`);
  else location.replace(`/join/${code}`);
})();
