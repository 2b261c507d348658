"""The games in progress of a batch on a Dask cluster, relayed to the client's live files
(`arena.core.live`; docs/cluster.md, "What is the same": Watching)."""

import logging
import math
import os
import threading
import time
from pathlib import Path
from typing import Any, Dict, Optional

from distributed import Client, Event, get_worker

from arena.core.live import LiveFile, MoveSink, game_head, is_watched, move_line
from arena.core.players.base import MoveResult
from arena.core.tasks import Task
from records.game import GameKey

LOG = logging.getLogger("arena.cluster")
ASK_EVERY = 1.0  # seconds: a worker asks the scheduler whether a page watches at most this often
LOOK_EVERY = 1.0  # seconds: the client looks at the folder's watching mark this often
WATCH_EVENT = "{}-watched"  # the scheduler's event that says a page watches batch run {}
LIVE_TOPIC = "{}-live"  # the topic of batch run {}'s relayed games


class RelaySink(MoveSink):
    """On a worker, for all its threads: whether a page watches (the scheduler's event, asked at
    most once every ASK_EVERY seconds), and each thread's watched games, sent to the client as
    events on the batch's live topic: the game's head first, each answer, its end last."""

    def __init__(self, name: str) -> None:
        self.event, self.topic = WATCH_EVENT.format(name), LIVE_TOPIC.format(name)
        self._lock = threading.Lock()
        self._asked = -math.inf  # time.monotonic() of the last question
        self._watched = False

    def watched(self) -> bool:
        """The scheduler's latest word on whether a page watches the batch."""
        now = time.monotonic()
        with self._lock:
            if now - self._asked < ASK_EVERY:
                return self._watched
            self._asked = now
        try:
            answer = bool(Event(self.event).is_set())
        except Exception as exc:  # the scheduler busy or going: this game goes unwatched
            LOG.debug("cluster: is the batch watched: %s", exc)
            answer = False
        with self._lock:
            self._watched = answer
        return answer

    def _send(self, msg: Dict[str, Any]) -> None:
        worker = get_worker()
        msg["slot"] = f"{worker.address}/{threading.get_ident()}"
        worker.log_event(self.topic, msg)

    def start(self, task: Task) -> None:
        self._send({"head": game_head(task)})

    def move(self, res: MoveResult) -> None:
        line = move_line(res)
        if line is not None:
            self._send({"move": line})

    def end(self) -> None:
        self._send({"end": True})


class LiveRelay:
    """On the client: keeps the scheduler's event in step with the folder's watching mark
    (a thread, one `stat` a second) and writes the games the workers send to live files."""

    def __init__(self, client: Client, name: str, folder: Path) -> None:
        self.client, self.folder = client, Path(folder)
        self.event = Event(WATCH_EVENT.format(name), client=client)
        self.topic = LIVE_TOPIC.format(name)
        self._set = False  # whether this client set the event
        self._lock = threading.Lock()
        self._files: Dict[str, LiveFile] = {}  # by worker thread (slot)
        self._keys: Dict[str, GameKey] = {}  # the game each open file shows, by slot
        self._closed = False
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def start(self) -> None:
        """Before the first game: a page already watching sees it from its first move."""
        self.client.subscribe_topic(self.topic, self.on_event)
        self._follow_mark()
        self._thread = threading.Thread(target=self._run, name="arena-live-relay", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(LOOK_EVERY):
            self._follow_mark()

    def _follow_mark(self) -> None:
        watched = is_watched(self.folder)
        if watched == self._set:
            return
        try:
            (self.event.set if watched else self.event.clear)()
            self._set = watched
        except Exception as exc:  # the scheduler going: the next look tries again
            LOG.debug("cluster: watch event: %s", exc)

    def on_event(self, event: Any) -> None:
        """A Dask topic handler (on the client's event loop): `event` is `(timestamp, msg)`."""
        msg = event[1]
        slot = msg.get("slot")
        try:
            with self._lock:
                if self._closed:
                    return
                if "head" in msg:
                    if slot not in self._files:
                        stem = f"{os.getpid()}-{len(self._files)}"
                        self._files[slot] = LiveFile(self.folder, stem)
                    self._files[slot].start_head(msg["head"])
                    self._keys[slot] = GameKey.from_dict(msg["head"]["key"])
                elif slot in self._keys:
                    if "move" in msg:
                        self._files[slot].write(msg["move"])
                    else:
                        self._end(slot)
        except (OSError, TypeError, KeyError, ValueError) as exc:  # never the client's loop
            LOG.debug("cluster: live file: %s", exc)

    def game_over(self, key: GameKey) -> None:
        """The game's record is back: its file goes, also one whose worker died mid-game."""
        with self._lock:
            for slot in [s for s, k in self._keys.items() if k == key]:
                self._end(slot)

    def _end(self, slot: str) -> None:
        del self._keys[slot]
        self._files[slot].end()

    def close(self) -> None:
        """The batch ends: no more files, the event cleared, every file removed."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            self._closed = True
            for slot in list(self._keys):
                self._end(slot)
        try:
            self.client.unsubscribe_topic(self.topic)
            if self._set:
                self.event.clear()
        except Exception as exc:  # the scheduler gone: nothing left to clear
            LOG.debug("cluster: watch event: %s", exc)
