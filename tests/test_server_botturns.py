"""The bots of a server process commit their actions in turns (rcw.server.driver.BotTurns): one
at a time, whatever the number of games, with a pass of the event loop between two, where the
requests of people are answered; a bot stopped while it waits for its turn, or while it holds
it, does not keep the others waiting."""

from __future__ import annotations

import asyncio

from rcw.server.driver import BotTurns


async def test_bots_commit_one_at_a_time_and_people_are_served_between_two():
    turns = BotTurns()
    holding: list[int] = []
    log: list[str] = []

    async def bot(i: int) -> None:
        for _ in range(3):
            async with turns.turn():
                holding.append(i)
                assert holding == [i], "two bots held the turn at once"
                log.append(f"bot{i}")
                await asyncio.sleep(0)          # (the commit awaits the store)
                holding.remove(i)

    async def person() -> None:
        for _ in range(12):
            log.append("person")
            await asyncio.sleep(0)

    await asyncio.wait_for(asyncio.gather(*(bot(i) for i in range(4)), person()), 5)
    assert log.count("person") == 12 and sum(x.startswith("bot") for x in log) == 12
    last_person = max(k for k, x in enumerate(log) if x == "person")
    bots = [k for k, x in enumerate(log) if x.startswith("bot") and k < last_person]
    assert len(bots) >= 4
    assert all(b - a > 1 for a, b in zip(bots, bots[1:], strict=False)), log   # (the person ran between)


async def test_a_bot_stopped_waiting_or_holding_its_turn_keeps_no_one_waiting():
    turns = BotTurns()
    done: list[str] = []

    async def bot(name: str, hold: float) -> None:
        async with turns.turn():
            await asyncio.sleep(hold)
            done.append(name)

    holder = asyncio.create_task(bot("holder", 10))
    waiter = asyncio.create_task(bot("waiter", 0))
    await asyncio.sleep(0.01)
    waiter.cancel()                        # stopped while waiting for its turn
    holder.cancel()                        # stopped while holding it
    await asyncio.gather(holder, waiter, return_exceptions=True)
    await asyncio.wait_for(asyncio.gather(bot("next", 0), bot("last", 0)), 2)
    assert done == ["next", "last"]
