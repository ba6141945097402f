"""The arrays a text index keeps, and how they go to disk: sparse rows of TF-IDF weights
(:class:`SparseRows`: plain numpy, no scipy at query time), strings in one buffer
(:class:`Sentences`), and the big character n-gram view written block by block
(:func:`write_char_rows`), never whole in memory. :mod:`kg.query.text_index` builds, saves and
queries the index with them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

import numpy as np


@dataclass
class SparseRows:
    """A CSR matrix as plain numpy arrays: what a query needs of it, without importing scipy
    (whose import costs ``kg related`` more than its answer). ``by_column`` holds the same
    matrix by column (CSC: pointers, rows, values), for :meth:`cosines`."""

    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray
    columns: int
    by_column: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    @classmethod
    def of(cls, matrix: Any) -> SparseRows:
        """From a scipy CSR matrix."""
        csc = matrix.tocsc()
        csc.sort_indices()
        by_column = (csc.indptr.astype(np.int64), csc.indices, csc.data)
        return cls(matrix.data, matrix.indices, matrix.indptr, matrix.shape[1], by_column)

    def cosines(self, i: int, top: int | None = None) -> np.ndarray:
        """Every row's dot product with row ``i`` (rows of unit length: their cosines); with
        ``top``, with the ``top`` heaviest columns of row ``i`` only.

        By column: only the rows that share a column with row ``i`` are touched, so a query
        costs the lengths of its columns, not the whole matrix (:meth:`scanned_cosines`). The
        heaviest columns are the rarest, with the shortest columns: on 43k papers' character
        n-grams the 400 heaviest cost 13 ms where all of them cost 870.
        """
        if self.by_column is None:
            return self.scanned_cosines(i)
        colptr, rows, values = self.by_column
        a, b = self.indptr[i], self.indptr[i + 1]
        terms, weights = self.indices[a:b], self.data[a:b]
        if top is not None and len(terms) > top:
            heaviest = np.sort(np.argsort(-weights, kind="stable")[:top])
            terms, weights = terms[heaviest], weights[heaviest]
        starts, lengths = colptr[terms], colptr[terms + 1] - colptr[terms]
        # every position of the query's columns, in column order
        at = spans(starts, lengths)
        products = values[at] * np.repeat(weights, lengths)
        n = len(self.indptr) - 1
        return np.bincount(rows[at], weights=products, minlength=n).astype(self.data.dtype)

    def dense_row(self, i: int) -> np.ndarray:
        """Row ``i`` as a dense vector."""
        a, b = self.indptr[i], self.indptr[i + 1]
        row = np.zeros(self.columns, dtype=self.data.dtype)
        row[self.indices[a:b]] = self.data[a:b]
        return row

    def row_cosines(self, i: int, rows: np.ndarray) -> np.ndarray:
        """:meth:`cosines` of the rows at ``rows`` only (in that order), row by row: a few
        thousand rows cost less than the long columns of a query's common terms."""
        query = self.dense_row(i)
        starts = self.indptr[rows]
        lengths = self.indptr[rows + 1] - starts
        at = spans(starts, lengths)
        products = self.data[at] * query[self.indices[at]]
        owner = np.repeat(np.arange(len(rows)), lengths)
        return np.bincount(owner, weights=products, minlength=len(rows)).astype(self.data.dtype)

    def scanned_cosines(self, i: int) -> np.ndarray:
        """:meth:`cosines` by scanning every row."""
        query = self.dense_row(i)
        starts = self.indptr[:-1]
        sums = np.add.reduceat(self.data * query[self.indices], starts) if len(self.data) else 0
        # reduceat gives an empty row the next row's first product: such a row shares nothing
        return np.where(starts == self.indptr[1:], 0.0, sums)


class Sentences(Sequence[str]):
    """Strings kept as one UTF-8 buffer and the offsets of each: a saved index maps the buffer
    from its file, and a query decodes only the sentences it shows."""

    def __init__(self, buffer: np.ndarray, offsets: np.ndarray) -> None:
        self.buffer, self.offsets = buffer, offsets

    @classmethod
    def of(cls, strings: list[str]) -> Sentences:
        encoded = [t.encode("utf-8") for t in strings]
        offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum([len(e) for e in encoded], out=offsets[1:])
        return cls(np.frombuffer(b"".join(encoded), dtype=np.uint8), offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        a, b = int(self.offsets[i]), int(self.offsets[i + 1])
        return bytes(self.buffer[a:b]).decode("utf-8")


def spans(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The positions ``starts[k] .. starts[k] + lengths[k] - 1`` of every span, in order.

    >>> spans(np.array([5, 0, 9]), np.array([2, 0, 3])).tolist()
    [5, 6, 9, 10, 11]
    """
    return np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())


def save_arrays(folder: Path, arrays: dict[str, np.ndarray]) -> None:
    for name, array in arrays.items():
        np.save(folder / f"{name}.npy", np.ascontiguousarray(array), allow_pickle=False)


#: Entries of a character n-gram matrix :func:`write_char_rows` gathers for one range of its
#: columns at a time (rows, columns and values: 12 bytes each, and the sort's order).
COLUMN_BUDGET = 1 << 24
#: Rows it reads back at a time while it gathers them.
READ_ROWS = 8192


def write_char_rows(folder: Path, view: str, texts: Sequence[str]) -> int:
    """Write the character n-gram TF-IDF of ``texts`` (:func:`kg.query.bags.char_tfidf`) as
    :meth:`kg.query.text_index.TextIndex.sparse_arrays` names it, by row and by column, and
    return its width.

    Neither the matrix nor its counts are ever whole in memory: the counts wait in files
    (:func:`~kg.query.bags.tfidf_blocks`), the weighted rows are appended to their files block
    by block, and the columns are gathered from those files a range of columns at a time
    (:data:`COLUMN_BUDGET` entries), each range sorted by column, rows in order within a
    column: the arrays :meth:`SparseRows.of` makes in memory (a unit test compares them)."""
    from kg.query.bags import char_bags, tfidf_blocks

    spill = folder / f"{view}-counts"
    spill.mkdir()
    rows = tfidf_blocks(*char_bags(texts), spill=spill)
    n, nnz = len(rows.indptr) - 1, int(rows.indptr[-1])
    data, indices = folder / f"{view}_data.npy", folder / f"{view}_indices.npy"
    with _NpyWriter(data, np.float32, nnz) as d, _NpyWriter(indices, np.int32, nnz) as i:
        for values, columns in rows.blocks:
            d.write(values)
            i.write(columns)
    spill.rmdir()
    # int32 where every index fits, as scipy makes a matrix's indptr
    small = max(nnz, n, rows.columns) <= np.iinfo(np.int32).max
    indptr = rows.indptr.astype(np.int32) if small else rows.indptr
    np.save(folder / f"{view}_indptr.npy", indptr, allow_pickle=False)
    colptr = np.zeros(rows.columns + 1, dtype=np.int64)
    np.cumsum(rows.df, out=colptr[1:])
    np.save(folder / f"{view}_colptr.npy", colptr, allow_pickle=False)
    read_indices, read_data = _npy_reader(indices), _npy_reader(data)
    out_rows = _NpyWriter(folder / f"{view}_colrows.npy", np.int32, nnz)
    out_data = _NpyWriter(folder / f"{view}_coldata.npy", np.float32, nnz)
    with out_rows, out_data:
        first = 0
        while first < rows.columns:
            # the columns whose entries fit the budget (at least one column)
            last = int(np.searchsorted(colptr, colptr[first] + COLUMN_BUDGET, side="right")) - 1
            last = min(max(last, first + 1), rows.columns)
            found_rows, found_columns, found_values = [], [], []
            for lo in range(0, n, READ_ROWS):
                hi = min(lo + READ_ROWS, n)
                a, b = int(rows.indptr[lo]), int(rows.indptr[hi])
                columns = read_indices(a, b)
                keep = (columns >= first) & (columns < last)
                if not keep.any():
                    continue
                lengths = np.diff(rows.indptr[lo : hi + 1])
                owner = np.repeat(np.arange(lo, hi, dtype=np.int32), lengths)
                found_rows.append(owner[keep])
                found_columns.append(columns[keep])
                found_values.append(read_data(a, b)[keep])
            if found_columns:
                order = np.argsort(np.concatenate(found_columns), kind="stable")
                out_rows.write(np.concatenate(found_rows)[order])
                out_data.write(np.concatenate(found_values)[order])
            first = last
    return rows.columns


class _NpyWriter:
    """A ``.npy`` file of a 1-D array of ``length`` items of ``dtype``, written in pieces, in
    order (the header first: the length is known)."""

    def __init__(self, path: Path, dtype: Any, length: int) -> None:
        self.dtype, self.length, self.written = np.dtype(dtype), length, 0
        self.file = open(path, "wb")  # noqa: SIM115  (closed by __exit__)
        header = {"descr": np.lib.format.dtype_to_descr(self.dtype), "fortran_order": False,
                  "shape": (length,)}  # fmt: skip
        np.lib.format.write_array_header_1_0(self.file, header)

    def write(self, array: np.ndarray) -> None:
        self.file.write(np.ascontiguousarray(array, dtype=self.dtype).tobytes())
        self.written += len(array)

    def __enter__(self) -> _NpyWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.file.close()
        if exc[0] is None and self.written != self.length:
            raise ValueError(f"{self.file.name}: {self.written} of {self.length} items written")


def _npy_reader(path: Path) -> Callable[[int, int], np.ndarray]:
    """A function that reads items ``start``..``end`` of the 1-D array in the ``.npy`` file at
    ``path`` (read, not mapped: what a pass over a big file maps stays counted in the process's
    memory)."""
    with open(path, "rb") as f:
        np.lib.format.read_magic(f)
        _, _, dtype = np.lib.format.read_array_header_1_0(f)
        offset = f.tell()

    def read(start: int, end: int) -> np.ndarray:
        return np.fromfile(
            path, dtype=dtype, count=end - start, offset=offset + start * dtype.itemsize
        )

    return read
