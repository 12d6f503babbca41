// The new-game form offers what the chosen game allows: its player counts, its options and its bots
// (the page's "zc-new-game-offers" data, from GameCreateForm.offers), and a bot choice only for the
// seats the table has. Without this script every choice stays on the page, and the server refuses
// what the game does not allow. A choice the game does not allow is hidden and disabled, so it is
// neither shown, read out, nor sent.
(function () {
  const data = document.getElementById("zc-new-game-offers");
  const firstGame = document.querySelector('form input[name="game"]');
  if (!data || !firstGame) return;
  const form = firstGame.form;
  const offers = JSON.parse(data.textContent);
  const everyOption = Object.values(offers.games).flatMap((game) => game.options);

  function allow(el, input, allowed) {
    el.hidden = !allowed;
    input.disabled = !allowed;
  }

  function offerSeats(game) {
    const radios = [...form.querySelectorAll('input[name="seats"]')];
    radios.forEach((radio) => allow(radio.closest("label"), radio, game.seats.includes(Number(radio.value))));
    if (!radios.some((radio) => radio.checked && !radio.disabled)) {
      const first = radios.find((radio) => !radio.disabled);
      if (first) first.checked = true;
    }
  }

  function offerOptions(game) {
    for (const name of everyOption) {
      const inputs = [...form.querySelectorAll(`[name="${name}"]`)];
      const mine = game.options.includes(name);
      if (inputs.length) inputs[0].closest("fieldset, .field").hidden = !mine;
      inputs.forEach((input) => { input.disabled = !mine; });
    }
  }

  function offerBots(game) {
    const seats = Number((form.querySelector('input[name="seats"]:checked') || {}).value || 0);
    offers.bot_fields.forEach((name, index) => {
      const select = form.querySelector(`select[name="${name}"]`);
      if (!select) return;
      allow(select.closest(".field"), select, index + 1 < seats);  // "Other player 1" is the second seat
      for (const option of select.options) {
        const playable = option.value === "" || game.bots.includes(option.value);  // "" is a person
        option.hidden = !playable;
        option.disabled = !playable;
      }
      if (select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = "";
    });
  }

  function update() {
    const chosen = form.querySelector('input[name="game"]:checked');
    const game = chosen && offers.games[chosen.value];
    if (!game) return;
    offerSeats(game);
    offerOptions(game);
    offerBots(game);
  }

  form.addEventListener("change", (event) => {
    if (event.target.name === "game" || event.target.name === "seats") update();
  });
  update();
})();
