// Read and unread: the toggle, marking a story read when it is opened (a POST: a GET never changes anything),
// the optional mark-on-scroll, and the view's "mark all" and "refresh" forms for the keyboard.
import { postJSON } from "./api.js";
import { show } from "./toast.js";

const SCROLL_SETTING = "reader.markOnScroll";

function adjustUnread(delta) {
  const badge = document.querySelector("[data-unread-total]");
  if (!badge || !delta) return;
  const count = Math.max(0, Number(badge.textContent) + delta);
  badge.textContent = String(count);
  badge.closest(".count").hidden = count === 0; // the number and the word "unread" that screen readers hear
}

// Show a story's state everywhere it appears on the page: its list row or article, and its button.
function showRead(storyId, read) {
  for (const holder of document.querySelectorAll(`.entry[data-story="${storyId}"], article.story[data-story="${storyId}"]`)) {
    holder.classList.toggle("read", read);
    holder.dataset.read = String(read);
    const button = holder.querySelector(".mark-read button");
    if (button) {
      button.value = String(!read);
      button.dataset.read = String(read);
      button.textContent = read ? "Mark unread" : "Mark read";
    }
  }
}

function isRead(storyId) {
  const holder = document.querySelector(`.entry[data-story="${storyId}"], article.story[data-story="${storyId}"]`);
  return holder?.dataset.read === "true" || holder?.classList.contains("read");
}

export async function setRead(storyIds, read) {
  const changed = storyIds.filter((id) => isRead(id) !== read);
  if (!changed.length) return;
  for (const id of changed) showRead(id, read);
  adjustUnread(read ? -changed.length : changed.length);
  try {
    await postJSON("/api/stories/read", { ids: changed.map(Number), read });
  } catch (error) {
    for (const id of changed) showRead(id, !read);
    adjustUnread(read ? changed.length : -changed.length);
    show(`Not marked: ${error.message}`);
  }
}

export function toggleRead(actions) {
  const id = actions.dataset.story;
  const read = !isRead(id);
  setRead([id], read).then(() => show(read ? "Marked read" : "Marked unread", () => setRead([id], !read)));
}

function markOpenedStory() {
  const article = document.querySelector("article.story[data-story]");
  if (article && article.dataset.read === "false") setRead([article.dataset.story], true);
}

function watchScrolling() {
  const list = document.querySelector("[data-entries]");
  const box = document.querySelector("[data-mark-on-scroll]");
  if (!list || !box || !("IntersectionObserver" in window)) return;
  box.closest("[data-mark-on-scroll-setting]").hidden = false;
  box.checked = localStorage.getItem(SCROLL_SETTING) === "on";
  box.addEventListener("change", () => localStorage.setItem(SCROLL_SETTING, box.checked ? "on" : "off"));
  let waiting = [];
  let timer = null;
  const observer = new IntersectionObserver((seen) => {
    if (!box.checked) return;
    for (const item of seen) {
      // Gone off the top of the screen: scrolled past, not just not reached yet.
      if (!item.isIntersecting && item.boundingClientRect.bottom <= 0 && !item.target.classList.contains("read")) {
        waiting.push(item.target.dataset.story);
      }
    }
    clearTimeout(timer);
    timer = setTimeout(() => { setRead(waiting, true); waiting = []; }, 300);
  });
  const observeAll = () => list.querySelectorAll(".entry").forEach((entry) => observer.observe(entry));
  observeAll();
  new MutationObserver(observeAll).observe(list, { childList: true }); // pages added by the infinite scroll
}

export function openOriginal(holder) {
  const url = holder?.querySelector("[data-original]")?.href ?? holder?.dataset.url ?? "";
  if (!/^https?:\/\//i.test(url)) return;
  window.open(url, "_blank", "noopener,noreferrer");
  setRead([holder.dataset.story], true);
}

export const submitForm = (selector) => document.querySelector(selector)?.requestSubmit();

export function install() {
  markOpenedStory();
  watchScrolling();
}
