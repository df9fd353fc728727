//! The official scorers' report, character for character (UTF-8): for DiscoMT 2015 the coarse
//! and the fine evaluation, the official score and a summary line; for WMT16/17 the evaluation
//! and the official score. Averaging over the classes present in the gold says so in the
//! headings it changes; the rest stays the scorers' text.

use super::classes::Scorer;
use super::score::{Evaluation, Macro, Scores};
use crate::scorers::numbers::perl_number;
use std::fmt::Write as _;

/// The report of `scores` for the prediction file named `predictions` (as given on the command
/// line: the DiscoMT 2015 summary line starts with it).
pub fn text(scores: &Scores, predictions: &str) -> String {
    let mut out = String::new();
    let present = scores.averaging == Macro::Present;
    let over = if present { " over the classes present in the gold" } else { "" };
    match scores.task.scorer {
        Scorer::Discomt2015 => {
            let numbers = ["I", "II"];
            for (number, evaluation) in numbers.iter().zip(&scores.evaluations) {
                let _ = write!(out, "\n<<< {number}. {} EVALUATION >>>\n\n", evaluation.classes.title);
                evaluation_text(&mut out, evaluation, present);
            }
            out.push_str("\n<<< III. OFFICIAL SCORE >>>\n");
            let _ = writeln!(out, "\nMACRO-averaged fine-grained F1{over}: {:6.2}%", scores.official());
            let _ =
                writeln!(out, "{predictions}\t{}\t{}", perl_number(scores.official()), perl_number(scores.accuracy()));
        }
        Scorer::Wmt16 => {
            out.push_str("\n<<< I.  EVALUATION >>>\n\n");
            evaluation_text(&mut out, scores.official_evaluation(), present);
            out.push_str("<<< II. OFFICIAL SCORE >>>\n");
            let _ = write!(out, "\nMACRO-averaged R{over}: {:6.2}%\n\n", scores.official());
        }
    }
    out
}

/// One evaluation: the confusion matrix with its sums, accuracy, each class, micro and macro.
fn evaluation_text(out: &mut String, e: &Evaluation, present: bool) {
    let n = e.classes.len();
    let shown: Vec<String> = (0..n).map(|c| e.classes.shown(c)).collect();
    let rule = "------".repeat(n);
    out.push_str("Confusion matrix:\n       ");
    for label in &shown {
        let _ = write!(out, " {label:>5}");
    }
    let _ = write!(out, " <-- classified as\n       +{rule}+ -SUM-\n");
    for (g, label) in shown.iter().enumerate() {
        let _ = write!(out, " {label:>5} |");
        for p in 0..n {
            let _ = write!(out, "{:5} ", e.confusion.get(g, p));
        }
        let _ = writeln!(out, "| {:5}", e.confusion.gold(g));
    }
    let _ = write!(out, "       +{rule}+\n -SUM- ");
    for p in 0..n {
        let _ = write!(out, "{:5} ", e.confusion.predicted(p));
    }
    out.push_str("\n\n");
    let (correct, total) = (e.confusion.correct(), e.confusion.total());
    let _ =
        writeln!(out, "Accuracy (calculated for the above confusion matrix) = {correct}/{total} = {:5.2}%", e.accuracy);
    out.push_str("\nResults for the individual labels:\n");
    for (s, label) in e.per_class.iter().zip(&shown) {
        let _ = writeln!(
            out,
            "{label:>10} :    P = {:5}/{:5} = {:6.2}%     R = {:5}/{:5} = {:6.2}%     F1 = {:6.2}%",
            s.correct, s.predicted, s.precision, s.correct, s.gold, s.recall, s.f1
        );
    }
    let micro_correct: u64 = e.per_class.iter().map(|s| s.correct).sum();
    let micro_predicted: u64 = e.per_class.iter().map(|s| s.predicted).sum();
    let micro_gold: u64 = e.per_class.iter().map(|s| s.gold).sum();
    let _ = writeln!(
        out,
        "\nMicro-averaged result:\nP = {micro_correct:5}/{micro_predicted:5} = {:6.2}%     R = {micro_correct:5}/{micro_gold:5} = {:6.2}%     F1 = {:6.2}%",
        e.micro.precision, e.micro.recall, e.micro.f1
    );
    let heading = match present {
        false => "MACRO-averaged result:".to_owned(),
        true => format!("MACRO-averaged result over the {} of {n} classes present in the gold:", e.averaged.len()),
    };
    let _ = write!(
        out,
        "\n{heading}\nP = {:6.2}%\tR = {:6.2}%\tF1 = {:6.2}%\n\n\n\n",
        e.macro_.precision, e.macro_.recall, e.macro_.f1
    );
}
