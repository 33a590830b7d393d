/**
 * Drop request traces anywhere on the page: the files a scenario names load it, others become the
 * workload (read locally; see trace-import.ts). Only drags that carry files are taken; text drags
 * (into the editor) pass.
 */
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import type { Driver } from '../driver';

function hasFiles(e: DragEvent): boolean {
  return !!e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files');
}

export function TraceDrop({ driver }: { driver: Driver }) {
  const [over, setOver] = useState(false);
  useEffect(() => {
    const onOver = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setOver(true);
    };
    const onLeave = (e: DragEvent) => {
      if (e.relatedTarget === null) setOver(false);
    };
    const onDrop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setOver(false);
      const files = Array.from(e.dataTransfer?.files ?? []);
      // the importer (and the YAML library it edits the scenario with) loads on first use
      if (files.length > 0) void import('./trace-import').then((m) => m.importTraces(driver, files));
    };
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [driver]);
  if (!over) return null;
  // Rendered on <body>: the column this panel sits in has `contain: strict`, which would make
  // `position: fixed` relative to that column instead of the page.
  return createPortal(
    <div className="trace-drop" role="status">
      Drop request traces (Mooncake JSONL, Azure or BurstGPT CSV) to replay them here — a file the scenario
      names by its trace file loads with it. Read in this browser, never uploaded.
    </div>,
    document.body,
  );
}
