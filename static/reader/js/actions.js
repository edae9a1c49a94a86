// Good / bad / save / read buttons: change at once, tell the server, offer Undo, put things back if it fails.
import { postJSON } from "./api.js";
import { toggleRead } from "./reading.js";
import { show } from "./toast.js";

const api = (storyId, what) => `/api/stories/${storyId}/${what}`;

function ratingOf(actions) {
  const pressed = actions.querySelector(".rate button[aria-pressed=true]");
  return pressed ? pressed.dataset.rating : null;
}

function showRating(actions, rating) {
  for (const button of actions.querySelectorAll(".rate button")) {
    const on = button.dataset.rating === rating;
    button.setAttribute("aria-pressed", String(on));
    button.value = on ? "clear" : button.dataset.rating;
  }
  actions.closest(".entry, .story")?.setAttribute("data-rating", rating ?? "");
}

export function rate(actions, wanted) {
  // Pressing the lit button takes the rating back.
  return setRating(actions, ratingOf(actions) === wanted ? null : wanted);
}

async function setRating(actions, rating) {
  const before = ratingOf(actions);
  showRating(actions, rating);
  try {
    await postJSON(api(actions.dataset.story, "rating"), { rating });
  } catch (error) {
    showRating(actions, before);
    show(`Rating not saved: ${error.message}`);
    return;
  }
  const text = rating ? `Rated ${rating}` : "Rating removed";
  show(text, () => setRating(actions, before));
}

function showSaved(actions, saved) {
  const button = actions.querySelector(".save button");
  button.setAttribute("aria-pressed", String(saved));
  button.value = String(!saved);
  button.textContent = saved ? "Saved" : "Save";
  // The name says what the button shows (WCAG 2.5.3): "Saved “…” for later", not "Save" beside the word Saved.
  button.setAttribute("aria-label", button.getAttribute("aria-label").replace(/^Saved?/, button.textContent));
}

export async function toggleSave(actions) {
  const before = actions.querySelector(".save button").getAttribute("aria-pressed") === "true";
  showSaved(actions, !before);
  try {
    await postJSON(api(actions.dataset.story, "save"), { saved: !before });
  } catch (error) {
    showSaved(actions, before);
    show(`Not saved: ${error.message}`);
    return;
  }
  show(before ? "Removed from saved" : "Saved for later", () => toggleSave(actions));
}

export function install() {
  // The buttons submit the page's one action form (actions.html): the button pressed says which story and what.
  document.addEventListener("submit", (event) => {
    const button = event.submitter;
    const actions = button?.closest(".actions");
    if (!actions) return;
    event.preventDefault();
    const group = button.parentElement.classList;
    if (group.contains("rate")) {
      rate(actions, button.dataset.rating);
    } else if (group.contains("mark-read")) {
      toggleRead(actions);
    } else {
      toggleSave(actions);
    }
  });
  for (const actions of document.querySelectorAll(".actions")) {
    const button = actions.querySelector(".save button");
    if (button) showSaved(actions, button.getAttribute("aria-pressed") === "true");
  }
}
