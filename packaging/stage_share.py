"""Put the desktop integration files into a bundle folder (build.sh runs it after PyInstaller):
BUNDLE/share/applications/sanplan.desktop, share/mime/packages/sanplan.xml, the icon in the
hicolor sizes (PNGs rendered from resources/icons/sanplan.svg with Qt, and the SVG itself) and
install.sh / uninstall.sh at the top, so that the unpacked .tar.gz installs itself.

    python packaging/stage_share.py BUNDLE_DIR
"""

import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SVG = HERE.parent / "resources" / "icons" / "sanplan.svg"
SIZES = (16, 24, 32, 48, 64, 128, 256)


def render_pngs(svg: Path, hicolor: Path) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 (painting needs one)
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"stage_share: {svg} is not a valid SVG")
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        renderer.render(painter)
        painter.end()
        out = hicolor / f"{size}x{size}" / "apps" / "sanplan.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(out)):
            raise SystemExit(f"stage_share: could not write {out}")


def stage(bundle: Path) -> None:
    share = bundle / "share"
    for src, dest in (
        (HERE / "sanplan.desktop", share / "applications" / "sanplan.desktop"),
        (HERE / "sanplan-mime.xml", share / "mime" / "packages" / "sanplan.xml"),
        (SVG, share / "icons" / "hicolor" / "scalable" / "apps" / "sanplan.svg"),
        (HERE / "install.sh", bundle / "install.sh"),
        (HERE / "uninstall.sh", bundle / "uninstall.sh"),
    ):
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest)
    render_pngs(SVG, share / "icons" / "hicolor")


if __name__ == "__main__":
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_dir():
        raise SystemExit("usage: python packaging/stage_share.py BUNDLE_DIR")
    stage(Path(sys.argv[1]))
