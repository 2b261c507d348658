"""Development tooling, outside the shipped packages: sample records, the headless browser, and
the opponent ladder's parts (its members, round robin and prover) that tests, bench/ and
scripts/ use. Nothing the arena, the bot or the analysis ship imports it."""
