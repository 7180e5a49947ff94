"""PowerPoint presentations (.pptx, opened and saved with python-pptx): every paragraph of every
text frame (shapes, groups, tables) of the slides and of their notes is a text (its title and
subject too), read and rewritten as runtime/documents/office.py says (run formatting and
hyperlinks placed by the alignment; layouts, positions and paragraph properties kept)."""

from __future__ import annotations

import io

from . import damaged
from .office import OfficeDocument, ParagraphReader, check_zip, declare_language, local


class SlidesDocument(OfficeDocument):
    def __init__(self, data: bytes):
        import pptx

        check_zip(data, "a PowerPoint presentation")
        try:
            self.presentation = pptx.Presentation(io.BytesIO(data))
        except Exception as error:  # python-pptx raises what its zip, XML and package readers raise
            raise damaged("PowerPoint presentation", error) from None
        self.paragraphs = [reader for reader in map(ParagraphReader, self.elements()) if reader.text.strip()]
        self.properties = self.presentation.core_properties

    def elements(self) -> list:
        """Every DrawingML paragraph (`a:p`) of the slides' and their notes' shapes, in order."""
        parts = []
        for slide in self.presentation.slides:
            parts.append(slide.shapes._spTree)
            if slide.has_notes_slide:
                parts.append(slide.notes_slide.shapes._spTree)
        return [
            element for part in parts for element in part.iter() if local(element) == "p" and "drawingml" in element.tag
        ]

    def declare(self, language: str) -> None:
        """The paragraphs' languages, and the defaults a run without its own inherits: the
        presentation's default text style, the slide masters', their layouts' and the notes
        master's text styles."""
        super().declare(language)
        masters = list(self.presentation.slide_masters)
        if any(slide.has_notes_slide for slide in self.presentation.slides):  # asked for otherwise, one is made
            masters.append(self.presentation.notes_master)
        layouts = [layout for master in masters for layout in getattr(master, "slide_layouts", ())]
        for part in [self.presentation, *masters, *layouts]:
            declare_language(part._element, language)

    def save(self, stream) -> None:
        self.presentation.save(stream)
