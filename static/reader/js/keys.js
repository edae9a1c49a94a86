// Keyboard: j/k move, o/Enter open, v original, g good, b bad, s save, m read, A mark all, r refresh,
// / search (Esc leaves it), u back, ? help.
import { rate, toggleSave } from "./actions.js";
import { openOriginal, submitForm, toggleRead } from "./reading.js";

const typing = (el) => el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

function entries() {
  return [...document.querySelectorAll("[data-entries] .entry")];
}

function current() {
  return document.querySelector(".entry.current") ?? document.querySelector("article.story");
}

function select(entry) {
  if (!entry) return;
  document.querySelector(".entry.current")?.classList.remove("current");
  entry.classList.add("current");
  entry.setAttribute("tabindex", "-1");
  entry.focus({ preventScroll: true });
  entry.scrollIntoView({ block: "nearest" });
}

function move(step) {
  const list = entries();
  if (!list.length) {
    // reading view: j/k walk to the next/previous story
    document.querySelector(step > 0 ? "[data-next]" : "[data-prev]")?.click();
    return;
  }
  const at = list.indexOf(document.querySelector(".entry.current"));
  select(list[Math.max(0, Math.min(list.length - 1, at < 0 ? 0 : at + step))]);
}

const commands = {
  j: () => move(1),
  k: () => move(-1),
  o: () => current()?.querySelector(".title a")?.click(),
  Enter: () => document.querySelector(".entry.current .title a")?.click(),
  g: () => withActions((a) => rate(a, "good")),
  b: () => withActions((a) => rate(a, "bad")),
  s: () => withActions(toggleSave),
  m: () => withActions(toggleRead),
  v: () => openOriginal(current()),
  A: () => submitForm("[data-mark-all]"),
  r: () => submitForm("[data-refresh]"),
  "/": () => document.querySelector("[data-search]")?.focus(),
  u: () => document.querySelector("[data-back]")?.click(),
  "?": () => document.getElementById("shortcuts")?.showModal(),
};

function withActions(action) {
  const actions = current()?.querySelector(".actions");
  if (actions) action(actions);
}

export function install() {
  // Back from a story (u, or the link: /#story-<id>): that story is the selected one, so j/k go on from there.
  const from = location.hash.startsWith("#story-") ? document.getElementById(location.hash.slice(1)) : null;
  if (from?.matches("[data-entries] .entry")) select(from);
  document.addEventListener("keydown", (event) => {
    // Esc leaves the search box that / went to, so that the keys work again without reaching for the mouse (and
    // keeps what was typed, which the browser would otherwise clear).
    if (event.key === "Escape" && event.target.matches?.("[data-search]")) {
      event.preventDefault();
      event.target.blur();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (document.querySelector("dialog[open]")) return;
    const command = commands[event.key];
    if (!command) return;
    if (event.key === "Enter" && !document.querySelector(".entry.current")) return;
    event.preventDefault();
    command();
  });
  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-show-shortcuts]")) document.getElementById("shortcuts")?.showModal();
    const entry = event.target.closest("[data-entries] .entry");
    if (entry && !entry.classList.contains("current")) {
      document.querySelector(".entry.current")?.classList.remove("current");
      entry.classList.add("current");
    }
  });
}
