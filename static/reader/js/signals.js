// Implicit signals, sent only on pages the server marked with data-signals (the user opted in on the taste page):
// a story opened, read to its end, or scrolled past unopened in the list. Batched; a lost batch is not retried,
// these are hints, not data the reader must keep.
import { postJSON } from "./api.js";

const BATCH = 500; // the API's limit
const READ_AFTER_MS = 10000; // the end of a story seen sooner was skimmed, not read
let waiting = [];
let timer = null;
const sent = new Set();

function flush() {
  clearTimeout(timer);
  const batch = waiting.splice(0, BATCH);
  if (batch.length) postJSON("/api/stories/signals", { signals: batch }).catch(() => {});
  if (waiting.length) timer = setTimeout(flush, 1000);
}

function send(id, kind) {
  const key = `${id}:${kind}`;
  if (sent.has(key)) return;
  sent.add(key);
  waiting.push({ id: Number(id), kind });
  clearTimeout(timer);
  timer = setTimeout(flush, 1000);
}

function watchStory(article) {
  send(article.dataset.story, "opened");
  const end = article.querySelector("[data-story-end]");
  if (!end || !("IntersectionObserver" in window)) return;
  let pending = null;
  new IntersectionObserver(([item]) => {
    clearTimeout(pending);
    if (!item.isIntersecting) return;
    const wait = Math.max(0, READ_AFTER_MS - performance.now());
    pending = setTimeout(() => send(article.dataset.story, "read"), wait);
  }).observe(end);
}

function watchList(list) {
  if (!("IntersectionObserver" in window)) return;
  const observer = new IntersectionObserver((seen) => {
    for (const item of seen) {
      // Gone off the top of the screen unopened: looked at and passed over, not just not reached yet.
      if (!item.isIntersecting && item.boundingClientRect.bottom <= 0 && !item.target.classList.contains("read")) {
        send(item.target.dataset.story, "skipped");
      }
    }
  });
  const observeAll = () => list.querySelectorAll(".entry").forEach((entry) => observer.observe(entry));
  observeAll();
  new MutationObserver(observeAll).observe(list, { childList: true }); // pages added by the infinite scroll
}

export function install() {
  const article = document.querySelector("article.story[data-signals]");
  if (article) watchStory(article);
  const list = document.querySelector("[data-entries][data-signals]");
  if (list) watchList(list);
  window.addEventListener("pagehide", flush);
}
