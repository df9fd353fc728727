//! The annotation GUI (eframe/egui). Draws the library's state and turns clicks into calls on it.

use protest::master_file;
use protest::model::Master;
use std::path::PathBuf;
use std::process::ExitCode;

/// The bundled sample, opened when no file is given.
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/sample_batches/sample.master.json");

pub fn run(file: Option<PathBuf>) -> ExitCode {
    let path = file.unwrap_or_else(|| PathBuf::from(SAMPLE));
    let loaded = master_file::load(&path).map_err(|e| e.to_string());
    let options = eframe::NativeOptions {
        viewport: eframe::egui::ViewportBuilder::default().with_inner_size([1200.0, 800.0]).with_title("PROTEST"),
        ..Default::default()
    };
    let result = eframe::run_native("PROTEST", options, Box::new(move |_cc| Ok(Box::new(App { path, loaded }))));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: could not open the window: {e}");
            ExitCode::FAILURE
        }
    }
}

struct App {
    path: PathBuf,
    loaded: Result<Master, String>,
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut eframe::egui::Ui, _frame: &mut eframe::Frame) {
        eframe::egui::CentralPanel::default().show(ui, |ui| {
            ui.heading(self.path.display().to_string());
            match &self.loaded {
                Err(e) => {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
                Ok(master) => {
                    for c in &master.categories {
                        let n = master.examples.iter().filter(|e| e.category == c.name).count();
                        ui.label(format!("{}: {n} examples", c.title()));
                    }
                }
            }
        });
    }
}
