"""Writes the ReportLab documents the PDF tests read (Debian's python3-reportlab).

    python3 reportlab-documents.py OUT_DIR

report.pdf: a two-page-plus report through platypus: running head and foot, headings,
bulleted and numbered lists (ListFlowable), a ruled table, a table ruled only under its
header that a page break cuts after its first row, a Preformatted listing with a blank
line, a bar chart (vector drawing), a long table repeating its header on every page.
twocol.pdf: a title frame over two columns, then two columns whose right one ends early.
invoice.pdf: a letterhead beside invoice details, an item table with totals (canvas).
charts.pdf: a pie chart with its legend, a horizontal bar chart over gridlines with data labels.
"""
import sys
from reportlab.lib import colors
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.shapes import Drawing
from reportlab.pdfgen import canvas
from reportlab.platypus import (BaseDocTemplate, Frame, ListFlowable, ListItem, NextPageTemplate, PageTemplate,
                                Paragraph, Preformatted, SimpleDocTemplate, Spacer, Table, TableStyle)

out = sys.argv[1]
ss = getSampleStyleSheet()
body = ParagraphStyle("body", parent=ss["BodyText"], alignment=TA_JUSTIFY, fontSize=10, leading=13)
cap = ParagraphStyle("cap", parent=ss["Italic"], fontSize=9)
PROSE = ("The quarterly review covers revenue, operating costs and the outlook for the next year. "
         "Sales in the northern region grew faster than expected, driven by new contracts with municipal customers, "
         "while the southern region held steady despite the loss of two distributors. Operating costs rose with wages "
         "and energy prices, but the margin stayed within the range the board set at the start of the year.")


def running(c, doc):
    c.saveState()
    c.setFont("Helvetica", 8)
    c.drawString(2 * cm, A4[1] - 1.3 * cm, "Northwind Traders - Quarterly Review 2026")
    c.drawRightString(A4[0] - 2 * cm, A4[1] - 1.3 * cm, "Confidential")
    c.line(2 * cm, A4[1] - 1.45 * cm, A4[0] - 2 * cm, A4[1] - 1.45 * cm)
    c.drawCentredString(A4[0] / 2, 1.2 * cm, "Page %d" % doc.page)
    c.restoreState()


def report():
    doc = SimpleDocTemplate(out + "/report.pdf", pagesize=A4, leftMargin=2 * cm, rightMargin=2 * cm, topMargin=2.2 * cm,
                            bottomMargin=2 * cm, title="Quarterly Review", author="Northwind", invariant=1)
    s = [Paragraph("Quarterly Review 2026", ss["Title"]), Paragraph("1. Summary", ss["Heading1"])]
    s += [Paragraph(PROSE, body), Paragraph(PROSE, body), Paragraph("1.1 Key figures", ss["Heading2"])]
    s.append(ListFlowable([ListItem(Paragraph(t, body)) for t in [
        "Revenue rose 12 percent to 48.2 million euros.",
        "Operating margin was 14.1 percent, up from 13.2 percent a year earlier, thanks to lower freight costs "
        "and better prices on the long contracts signed in the spring.",
        "Headcount grew by 35 to 1,204 employees."]], bulletType="bullet", start="\u2022"))
    s.append(Paragraph("1.2 Steps taken", ss["Heading2"]))
    s.append(ListFlowable([ListItem(Paragraph(t, body)) for t in [
        "Closed the Lyon warehouse and moved its stock to Paris.",
        "Signed a three-year energy contract at a fixed price.",
        "Opened a sales office in Milan."]], bulletType="1"))
    s += [Paragraph("2. Revenue by region", ss["Heading1"]), Paragraph(PROSE, body)]
    data = [["Region", "Q1", "Q2", "Q3", "Q4", "Total"]]
    for i, r in enumerate(["North", "South", "East", "West", "Central", "Overseas"]):
        q = [round(2.1 + i * 0.37 + k * 0.21, 2) for k in range(4)]
        data.append([r] + ["%.2f" % v for v in q] + ["%.2f" % sum(q)])
    t = Table(data, colWidths=[4 * cm] + [2.2 * cm] * 5)
    t.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.grey), ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
                           ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"), ("ALIGN", (1, 0), (-1, -1), "RIGHT")]))
    s += [t, Paragraph("Table 1: Revenue by region and quarter, in million euros.", cap), Spacer(1, 8), Paragraph(PROSE, body)]
    lines = [["Product line", "Units", "Share", "Change"]] + [["Line %s" % c, str(1000 + 137 * i), "%d%%" % (5 + i * 3), "+%d.%d%%" % (i, i)]
                                                             for i, c in enumerate("ABCDEFG")]
    t2 = Table(lines, colWidths=[5 * cm, 3 * cm, 3 * cm, 3 * cm])
    t2.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, 0), 1, colors.black), ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                            ("ALIGN", (1, 0), (-1, -1), "RIGHT")]))
    s += [Paragraph("Table 2: Units sold by product line.", cap), t2]
    s += [Paragraph("3. Outlook", ss["Heading1"])] + [Paragraph(PROSE, body) for _ in range(3)]
    s += [Paragraph("3.1 Code sample", ss["Heading2"]), Preformatted("def forecast(q):\n    return q * 1.04\n\nprint(forecast(48.2))", ss["Code"])]
    d = Drawing(400, 180)
    chart = VerticalBarChart()
    chart.x, chart.y, chart.height, chart.width = 50, 30, 130, 300
    chart.data = [[10.2, 11.5, 12.1, 14.4]]
    chart.categoryAxis.categoryNames = ["Q1", "Q2", "Q3", "Q4"]
    d.add(chart)
    s += [d, Paragraph("Figure 1: Revenue per quarter.", cap), Paragraph("4. Customer list", ss["Heading1"])]
    customers = [["#", "Customer", "City", "Orders", "Amount"]] + [
        [str(i + 1), "Customer %03d GmbH" % (i + 1), ["Berlin", "Hamburg", "Munich", "Cologne"][i % 4], str(3 + i % 7), "{:,}.00".format(1200 + i * 57)]
        for i in range(70)]
    t3 = Table(customers, colWidths=[1.2 * cm, 6 * cm, 3.5 * cm, 2 * cm, 3 * cm], repeatRows=1)
    t3.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.25, colors.black), ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                            ("ALIGN", (3, 0), (-1, -1), "RIGHT")]))
    s += [t3, Paragraph(PROSE, body)]
    doc.build(s, onFirstPage=running, onLaterPages=running)


def twocol():
    doc = BaseDocTemplate(out + "/twocol.pdf", pagesize=A4, invariant=1)
    W, H = A4
    m, g = 2 * cm, 0.8 * cm
    fw = (W - 2 * m - g) / 2
    first = [Frame(m, H - m - 4 * cm, W - 2 * m, 4 * cm, id="top"), Frame(m, m, fw, H - 2 * m - 4 * cm, id="c1"),
             Frame(m + fw + g, m, fw, H - 2 * m - 4 * cm, id="c2")]
    cols = [Frame(m, m, fw, H - 2 * m, id="a"), Frame(m + fw + g, m, fw, H - 2 * m, id="b")]
    doc.addPageTemplates([PageTemplate(id="first", frames=first, onPage=running), PageTemplate(id="cols", frames=cols, onPage=running)])
    s = [Paragraph("Field Notes on Soil Moisture", ss["Title"]), Paragraph("A. Author and B. Writer, Institute of Hydrology", ss["Italic"]),
         NextPageTemplate("cols")]
    for sec in range(1, 6):
        s.append(Paragraph("%d. Section %d" % (sec, sec), ss["Heading2"]))
        s += [Paragraph("Paragraph %d.%d. " % (sec, i + 1) + PROSE, body) for i in range(3)]
    doc.build(s)


def invoice():
    c = canvas.Canvas(out + "/invoice.pdf", pagesize=A4, invariant=1)
    W, H = A4
    c.setFont("Helvetica-Bold", 20)
    c.drawString(2 * cm, H - 3 * cm, "ACME Supplies Ltd")
    c.setFont("Helvetica", 9)
    for i, l in enumerate(["12 Harbour Road", "Bristol BS1 4QA", "United Kingdom", "VAT GB 123 4567 89"]):
        c.drawString(2 * cm, H - 3.7 * cm - i * 11, l)
    c.setFont("Helvetica-Bold", 16)
    c.drawRightString(W - 2 * cm, H - 3 * cm, "INVOICE")
    c.setFont("Helvetica", 9)
    for i, (k, v) in enumerate([("Invoice no.", "INV-2026-0147"), ("Date", "14 November 2026"), ("Due date", "14 December 2026"), ("Customer no.", "C-2291")]):
        c.drawString(W - 8 * cm, H - 3.7 * cm - i * 11, k)
        c.drawRightString(W - 2 * cm, H - 3.7 * cm - i * 11, v)
    items = [("Steel brackets, 40 mm", 250, 0.84), ("Hex bolts M8 x 30, box of 100", 12, 9.5), ("Wall plugs 8 mm, box of 200", 10, 6.25),
             ("Cordless drill 18 V", 2, 129.0), ("Safety gloves, size L", 40, 3.1), ("Delivery", 1, 15.0)]
    data = [["Description", "Qty", "Unit price", "Amount"]] + [[d, str(q), "%.2f" % p, "%.2f" % (q * p)] for d, q, p in items]
    t = Table(data, colWidths=[9 * cm, 2 * cm, 3 * cm, 3 * cm])
    t.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black), ("LINEBELOW", (0, -1), (-1, -1), 0.8, colors.black),
                           ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"), ("ALIGN", (1, 0), (-1, -1), "RIGHT"), ("FONTSIZE", (0, 0), (-1, -1), 9)]))
    w, h = t.wrap(0, 0)
    t.drawOn(c, 2 * cm, H - 10 * cm - h)
    total = sum(q * p for _, q, p in items)
    y = H - 10 * cm - h - 18
    for k, v in [("Subtotal", total), ("VAT 20%", total * 0.2), ("Total due", total * 1.2)]:
        c.setFont("Helvetica-Bold" if k == "Total due" else "Helvetica", 9)
        c.drawString(W - 8 * cm, y, k)
        c.drawRightString(W - 2 * cm, y, "%.2f GBP" % v)
        y -= 12
    c.setFont("Helvetica", 8)
    c.drawString(2 * cm, 3 * cm, "Payment within 30 days to Lloyds Bank, sort code 30-94-57, account 12345678. Thank you for your business.")
    c.showPage()
    c.save()


def charts():
    from reportlab.graphics.charts.barcharts import HorizontalBarChart
    from reportlab.graphics.charts.legends import Legend
    from reportlab.graphics.charts.piecharts import Pie
    doc = SimpleDocTemplate(out + "/charts.pdf", pagesize=A4, invariant=1)
    text = "The chart shows the share of each document type in the corpus parsed this quarter, by pages."
    pie_drawing = Drawing(400, 200)
    pie = Pie()
    pie.x, pie.y, pie.width, pie.height = 50, 20, 150, 150
    pie.data, pie.labels = [40, 25, 20, 15], ["PDF", "Word", "HTML", "Scans"]
    for i, colour in enumerate([colors.red, colors.green, colors.blue, colors.orange]):
        pie.slices[i].fillColor = colour
    pie_drawing.add(pie)
    legend = Legend()
    legend.x, legend.y = 260, 150
    legend.colorNamePairs = [(colors.red, "PDF 40%"), (colors.green, "Word 25%"), (colors.blue, "HTML 20%")]
    pie_drawing.add(legend)
    bars = Drawing(400, 150)
    chart = HorizontalBarChart()
    chart.x, chart.y, chart.width, chart.height = 80, 20, 280, 110
    chart.data = [[12, 30, 22]]
    chart.categoryAxis.categoryNames = ["Parsing", "Chunking", "Embedding"]
    chart.valueAxis.visibleGrid = 1
    chart.barLabelFormat = "%d"
    bars.add(chart)
    doc.build([Paragraph("Charts", ss["Title"]), Paragraph(text, body), pie_drawing, Paragraph("Figure 1: Pages by document type.", cap),
               Paragraph(text, body), bars, Paragraph("Figure 2: Seconds per stage.", cap), Paragraph(text, body)])


report()
twocol()
invoice()
charts()
