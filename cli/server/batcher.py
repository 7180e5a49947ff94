"""Dynamic batching: concurrent requests' texts gathered into decode batches, one model each.

A request's texts join a bounded queue (`Busy` when it is full: memory does not grow with the
load). One task per model takes the first waiting job and every job already queued, up to
`max_batch` texts (a job is never split); when the last batch held several requests, it also waits
up to `max_wait` seconds for more (clients that just got their answers are sending their next
ones), while a lone client is never kept waiting (docs/studies/SERVE.md). It decodes jobs that ask for
the same search settings together in a worker thread: onnxruntime releases the GIL, so the event
loop keeps accepting requests meanwhile, and they queue up for the next batch. The LoadedModel
sorts and splits a batch over the cores itself, and a text translates the same in any company
(tests/test_shipped_model.py), so every caller gets what `attn translate` prints.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from attn.runtime.constants import BATCH_SIZE
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.search import SearchOptions
from attn.runtime.translation import TextOptions, Translation

from .settings import MAX_BATCH, MAX_QUEUED, MAX_WAIT_SECONDS


class Busy(Exception):
    """The queue holds as many texts as it may: the caller should retry later."""


@dataclass
class Job:
    texts: list[str]
    options: SearchOptions
    text_options: TextOptions
    future: asyncio.Future = field(repr=False)


class DynamicBatcher:
    def __init__(
        self,
        translator: LoadedModel,
        max_batch: int = MAX_BATCH,
        max_wait: float = MAX_WAIT_SECONDS,
        max_queued: int = MAX_QUEUED,
        batch_size: int = BATCH_SIZE,
    ):
        self.translator = translator
        self.max_batch, self.max_wait, self.max_queued, self.batch_size = max_batch, max_wait, max_queued, batch_size
        self.queue: asyncio.Queue[Job] = asyncio.Queue()
        self.queued = 0  # texts waiting, not yet taken into a batch
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="attn-decode")
        self.task: asyncio.Task | None = None
        self.concurrent = False  # whether the last batch gathered more than one request

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop taking jobs; jobs still queued fail with Busy (the server is going away)."""
        if self.task:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        while not self.queue.empty():
            job = self.queue.get_nowait()
            if not job.future.done():
                job.future.set_exception(Busy("the server is shutting down"))
        self.executor.shutdown(wait=True)

    async def translate(
        self, texts: list[str], options: SearchOptions, text_options: TextOptions = TextOptions()
    ) -> list[list[Translation]]:
        """The n-best translations of `texts`, once a batch took them; Busy when the queue is full.
        Cancelling the wait (a request's timeout) drops the job if no batch took it yet."""
        if self.queued + len(texts) > self.max_queued:
            raise Busy(
                f"{self.queued} texts are waiting and this request brings {len(texts)}: "
                f"at most {self.max_queued} may wait (--max-queued)"
            )
        job = Job(texts, options, text_options, asyncio.get_running_loop().create_future())
        self.queued += len(texts)
        self.queue.put_nowait(job)
        return await job.future

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            jobs = await self._gather(loop)
            groups: dict[tuple[SearchOptions, TextOptions], list[Job]] = defaultdict(list)
            for job in jobs:
                if not job.future.done():  # a request that timed out while queued is skipped
                    groups[job.options, job.text_options].append(job)
            for (options, text_options), group in groups.items():
                texts = [text for job in group for text in job.texts]
                stop = threading.Event()  # set once no request of the batch waits any more: the search ends

                def stop_when_abandoned(_, group=group, stop=stop):
                    if all(job.future.done() for job in group):
                        stop.set()

                for job in group:
                    job.future.add_done_callback(stop_when_abandoned)
                try:
                    results = await loop.run_in_executor(
                        self.executor, self._decode, texts, options, text_options, stop
                    )
                except Exception as error:  # a failure fails this batch's requests, not the server
                    for job in group:
                        if not job.future.done():
                            job.future.set_exception(error)
                    continue
                start = 0
                for job in group:
                    if not job.future.done():
                        job.future.set_result(results[start : start + len(job.texts)])
                    start += len(job.texts)

    async def _gather(self, loop: asyncio.AbstractEventLoop) -> list[Job]:
        """The first waiting job and those queued, up to max_batch texts; after a batch of several
        requests, also those that arrive within max_wait."""
        jobs = [await self.queue.get()]
        count = len(jobs[0].texts)
        deadline = loop.time() + (self.max_wait if self.concurrent else 0.0)
        while count < self.max_batch:
            if self.queue.empty():
                remaining = deadline - loop.time()
                if remaining <= 0:
                    break
                try:
                    job = await asyncio.wait_for(self.queue.get(), remaining)
                except TimeoutError:
                    break
            else:
                job = self.queue.get_nowait()
            jobs.append(job)
            count += len(job.texts)
        self.queued -= count
        self.concurrent = len(jobs) > 1
        return jobs

    def _decode(
        self, texts: list[str], options: SearchOptions, text_options: TextOptions, stop: threading.Event
    ) -> list[list[Translation]]:
        return self.translator.translate(texts, options, self.batch_size, text_options=text_options, stop=stop)
