// The demo's second folder: a warehouse service in Python (FastAPI, SQLAlchemy, Celery).
import { type DemoFile, type DemoProject, demoFile as file } from './types';

const files: DemoFile[] = [
  file(
    'app/api/receipts.py',
    '@router.post("/receipts")\nasync def receive(body: ReceiptIn, db: Session = Depends(get_db)):\n    return book_receipt(db, body.sku, body.qty)\n',
    '@router.post("/receipts/scan")\nasync def scan(body: ScanIn, db: Session = Depends(get_db)) -> ReceiptOut:\n    item = db.scalar(select(Item).where(Item.gtin == normalize_gtin(body.barcode)))\n    if item is None:\n        raise HTTPException(404, f"no item with barcode {body.barcode}")\n    return book_receipt(db, item.sku, body.qty or item.pack_size)\n',
    'a scanned barcode (EAN-13 or GTIN-14, normalised) finds the item and books a whole pack unless a quantity is given',
    'from fastapi import APIRouter, Depends, HTTPException\nfrom sqlalchemy import select\nfrom sqlalchemy.orm import Session\n\nfrom app.db import get_db\nfrom app.models import Item\nfrom app.stock import book_receipt, normalize_gtin\n\nrouter = APIRouter()\n\n\n',
  ),
  file(
    'app/picking/pick_list.py',
    '    return sorted(lines, key=lambda l: l.sku)\n',
    '    # Walk the warehouse once: aisle, then shelf, snaking so odd aisles run back to front.\n    return sorted(lines, key=lambda l: (l.aisle, l.shelf if l.aisle % 2 == 0 else -l.shelf, l.sku))\n',
    'a pick list sorted by SKU sent pickers back and forth; sorted by aisle and shelf, snaking, one walk covers it',
    'from app.models import PickLine\n\n\ndef ordered(lines: list[PickLine]) -> list[PickLine]:\n',
  ),
  file(
    'app/api/shipments.py',
    '    shipments = db.scalars(select(Shipment).order_by(Shipment.created_at.desc())).all()\n',
    '    shipments = db.scalars(\n        select(Shipment)\n        .options(selectinload(Shipment.lines).joinedload(ShipmentLine.item))\n        .order_by(Shipment.created_at.desc())\n    ).all()\n',
    'each shipment loaded its lines, and each line its item, one query at a time (1 + 50 + 400 queries per page); `selectinload` makes it three',
    'from fastapi import APIRouter, Depends\nfrom sqlalchemy import select\nfrom sqlalchemy.orm import Session, joinedload, selectinload\n\nfrom app.db import get_db\nfrom app.models import Shipment, ShipmentLine\n\nrouter = APIRouter()\n\n\n@router.get("/shipments")\ndef list_shipments(db: Session = Depends(get_db)):\n',
    '    return [s.to_dict() for s in shipments]\n',
  ),
  file(
    'app/models/stock.py',
    'class StockMove(Base):\n    __tablename__ = "stock_moves"\n    id = Column(Integer, primary_key=True)\n    sku = Column(String(32), nullable=False)\n    qty = Column(Integer, nullable=False)\n',
    'class StockMove(Base):\n    __tablename__ = "stock_moves"\n\n    id: Mapped[int] = mapped_column(primary_key=True)\n    sku: Mapped[str] = mapped_column(String(32), index=True)\n    qty: Mapped[int]\n    lot: Mapped[str | None] = mapped_column(String(40))\n    booked_at: Mapped[datetime] = mapped_column(server_default=func.now())\n',
    'the models use SQLAlchemy 2.0 typed mappings (`Mapped[...]`), so mypy checks every query that touches them',
    'from datetime import datetime\n\nfrom sqlalchemy import String, func\nfrom sqlalchemy.orm import Mapped, mapped_column\n\nfrom app.db import Base\n\n\n',
  ),
  file(
    'tests/conftest.py',
    '@pytest.fixture\ndef db():\n    return SessionLocal()\n',
    '@pytest.fixture\ndef db(engine):\n    """A session in a transaction that is rolled back after the test: tests never see each other."""\n    with engine.connect() as conn, conn.begin() as tx:\n        yield Session(bind=conn, join_transaction_mode="create_savepoint")\n        tx.rollback()\n',
    'each test gets a session inside a transaction that is rolled back, so tests no longer leak rows into each other',
    'import pytest\nfrom sqlalchemy.orm import Session\n\nfrom app.db import make_engine\n\n\n@pytest.fixture(scope="session")\ndef engine():\n    return make_engine("postgresql+psycopg://localhost/warehouse_test")\n\n\n',
  ),
  file(
    'app/tasks/reconcile.py',
    '@app.task\ndef reconcile():\n    for item in Item.query.all():\n        fix_stock(item)\n',
    '@app.task(bind=True, max_retries=3, acks_late=True)\ndef reconcile(self, warehouse_id: int) -> dict[str, int]:\n    """Nightly: compare the ledger with the last count and book the difference."""\n    with session_scope() as db:\n        diffs = ledger_vs_count(db, warehouse_id)\n        for diff in diffs:\n            book_adjustment(db, diff, reason="nightly reconciliation")\n    return {"adjusted": len(diffs)}\n',
    'the task runs per warehouse, retries on a lost connection, books each difference as an adjustment with a reason, and reports how many it made',
    'from app.celery import app\nfrom app.db import session_scope\nfrom app.stock import book_adjustment, ledger_vs_count\n\n\n',
  ),
  file(
    'alembic/versions/7f3c_add_lot_numbers.py',
    '# (new file)\n',
    'def upgrade() -> None:\n    op.add_column("stock_moves", sa.Column("lot", sa.String(40), nullable=True))\n    op.add_column("stock_moves", sa.Column("expires_on", sa.Date(), nullable=True))\n    op.create_index("ix_stock_moves_sku_lot", "stock_moves", ["sku", "lot"])\n\n\ndef downgrade() -> None:\n    op.drop_index("ix_stock_moves_sku_lot", table_name="stock_moves")\n    op.drop_column("stock_moves", "expires_on")\n    op.drop_column("stock_moves", "lot")\n',
    'stock moves record a lot and an expiry date, indexed by SKU and lot for recalls',
    '"""add lot numbers and expiry dates\n\nRevision ID: 7f3c2a91d0e4\nRevises: 5b1e0c77a3f2\n"""\nimport sqlalchemy as sa\nfrom alembic import op\n\nrevision = "7f3c2a91d0e4"\ndown_revision = "5b1e0c77a3f2"\n\n\n',
  ),
  file(
    'app/integrations/slack.py',
    '    requests.post(WEBHOOK_URL, json={"text": message})\n',
    '    async with httpx.AsyncClient(timeout=5) as client:\n        response = await client.post(WEBHOOK_URL, json={"text": message, "unfurl_links": False})\n        response.raise_for_status()\n',
    'the alert is sent with an async client and a 5 s timeout, so a slow Slack no longer holds a worker, and a failed post is raised instead of lost',
    'import os\n\nimport httpx\n\nWEBHOOK_URL = os.environ["SLACK_WEBHOOK_URL"]\n\n\nasync def alert(message: str) -> None:\n',
  ),
  file(
    'app/importers/supplier_prices.py',
    '    df = pd.read_excel(path)\n',
    '    df = pd.read_excel(path, dtype={"GTIN": str, "Art.-Nr.": str}, usecols=COLUMNS.keys())\n    df = df.rename(columns=COLUMNS).dropna(subset=["gtin"])\n',
    'GTINs were read as numbers and lost their leading zeros; every column is now read by name with the right type',
    'import pandas as pd\n\nCOLUMNS = {"GTIN": "gtin", "Art.-Nr.": "supplier_sku", "EK netto": "cost"}\n\n\ndef load(path: str) -> pd.DataFrame:\n',
    '    return df\n',
  ),
  file(
    'Dockerfile',
    'FROM python:3.12\nCOPY . /app\nRUN pip install -r /app/requirements.txt\n',
    'FROM ghcr.io/astral-sh/uv:python3.12-bookworm-slim\nWORKDIR /app\nCOPY pyproject.toml uv.lock ./\nRUN uv sync --frozen --no-dev --no-install-project\nCOPY app ./app\nCMD ["uv", "run", "--no-dev", "uvicorn", "app.main:app", "--host", "0.0.0.0"]\n',
    'the image installs the locked dependencies with uv before copying the code, so a code change rebuilds in seconds',
  ),
  file(
    'pyproject.toml',
    '[tool.ruff.lint]\nselect = ["E", "F"]\n',
    '[tool.ruff.lint]\nselect = ["E", "F", "I", "UP", "B"]\n\n[tool.ruff.lint.isort]\nknown-first-party = ["app"]\n',
    'ruff now sorts imports (`I`), modernises syntax (`UP`) and flags likely bugs (`B`)',
    '[project]\nname = "acme-warehouse"\nversion = "0.9.0"\nrequires-python = ">=3.12"\n\n',
  ),
  file(
    'app/labels/zpl.py',
    '    return f"^XA^FO50,50^A0N,40^FD{item.name}^FS^XZ"\n',
    '    return "\\n".join([\n        "^XA",\n        f"^FO40,30^A0N,36^FD{item.name[:28]}^FS",\n        f"^FO40,80^BY2^BEN,80,Y,N^FD{item.gtin}^FS",\n        f"^FO40,200^A0N,28^FDLot {lot}  exp. {expires:%Y-%m}^FS",\n        "^XZ",\n    ])\n',
    'the label adds the EAN barcode and the lot with its expiry, and cuts long names so they fit the 4" labels',
    'from datetime import date\n\nfrom app.models import Item\n\n\ndef label(item: Item, lot: str, expires: date) -> str:\n',
  ),
  file(
    'app/reports/valuation.sql',
    'SELECT sku, sum(qty) * (SELECT cost FROM prices p WHERE p.sku = m.sku ORDER BY valid_from DESC LIMIT 1)\n  FROM stock_moves m GROUP BY sku;\n',
    'WITH on_hand AS (\n  SELECT sku, sum(qty) AS qty FROM stock_moves GROUP BY sku\n), cost AS (\n  SELECT DISTINCT ON (sku) sku, cost FROM prices ORDER BY sku, valid_from DESC\n)\nSELECT o.sku, o.qty, o.qty * c.cost AS value\n  FROM on_hand o JOIN cost c USING (sku)\n WHERE o.qty <> 0;\n',
    'the current cost is found once per SKU with `DISTINCT ON` instead of once per row (41 s to 0.9 s)',
    '-- Stock valuation at current cost, for the monthly report.\n',
  ),
];

function kind(path: string): string {
  if (path.endsWith('.sql')) return 'sql';
  if (path.endsWith('.toml')) return 'toml';
  if (path === 'Dockerfile') return 'docker';
  if (path.startsWith('alembic/')) return 'alembic';
  return 'py';
}

/** `app/picking/pick_list.py` → `tests/test_pick_list.py`. */
function testPath(path: string): string {
  return `tests/test_${path.split('/').pop()}`;
}

/** Tests that follow-up turns add, by the file they test. */
const tests: Record<string, string> = {
  'app/picking/pick_list.py': [
    'from app.models import PickLine',
    'from app.picking.pick_list import ordered',
    '',
    '',
    'def line(sku: str, aisle: int, shelf: int) -> PickLine:',
    '    return PickLine(sku=sku, aisle=aisle, shelf=shelf, qty=1)',
    '',
    '',
    'def test_walks_each_aisle_once_snaking():',
    '    lines = [line("c", 2, 1), line("a", 1, 1), line("b", 1, 5), line("d", 2, 9)]',
    '    assert [l.sku for l in ordered(lines)] == ["b", "a", "c", "d"]',
    '',
  ].join('\n'),
  'app/api/shipments.py': [
    'from sqlalchemy import event',
    '',
    '',
    'def test_a_page_of_shipments_costs_three_queries(client, engine, shipments_with_lines):',
    '    statements = []',
    '    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))',
    '    assert client.get("/shipments").status_code == 200',
    '    assert len(statements) == 3',
    '',
  ].join('\n'),
};

export const warehouse: DemoProject = {
  name: 'acme-warehouse',
  files,
  extra: {
    'README.md':
      '# acme-warehouse\n\nGoods receipt, picking, stock and labels for the Acme warehouses (FastAPI, Postgres, Celery).\n',
    'CHANGELOG.md': '# Changelog\n\n## Unreleased\n\n',
  },
  lint: {
    command: 'uv run ruff check . && uv run mypy app',
    output: 'All checks passed!\nSuccess: no issues found in 48 source files\n',
  },
  tests,
  testPath,
  check(f) {
    switch (kind(f.path)) {
      case 'toml':
        return { command: 'uv run ruff check .', output: 'All checks passed!\n' };
      case 'docker':
        return {
          command: 'docker build -t acme-warehouse:dev .',
          output:
            '[+] Building 19.7s (10/10) FINISHED\n => [3/5] RUN uv sync --frozen --no-dev --no-install-project     11.2s\n => [4/5] COPY app ./app                                            0.1s\n => exporting to image                                              0.9s\n',
        };
      case 'alembic':
        return {
          command: 'uv run alembic upgrade head && uv run alembic downgrade -1 && uv run alembic upgrade head',
          output:
            'INFO  [alembic.runtime.migration] Running upgrade 5b1e0c77a3f2 -> 7f3c2a91d0e4, add lot numbers and expiry dates\nINFO  [alembic.runtime.migration] Running downgrade 7f3c2a91d0e4 -> 5b1e0c77a3f2\nINFO  [alembic.runtime.migration] Running upgrade 5b1e0c77a3f2 -> 7f3c2a91d0e4, add lot numbers and expiry dates\n',
        };
      case 'sql':
        return {
          command: 'uv run pytest tests/test_reports.py -q',
          output: '....                                                          [100%]\n4 passed in 1.37s\n',
        };
      default: {
        const test = testPath(f.path);
        return {
          command: `uv run pytest ${test} -q`,
          output: `........                                                      [100%]\n8 passed in 0.84s\n`,
        };
      }
    }
  },
};
